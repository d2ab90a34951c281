/** The part of mailauth (a DKIM/SPF/DMARC verifier, ships no types) the DKIM test uses. */
declare module 'mailauth/lib/dkim/verify.js' {
  export interface DkimResult {
    signingDomain: string;
    selector: string;
    status: { result: 'pass' | 'fail' | 'neutral' | 'policy' | 'none' | 'temperror' | 'permerror'; comment?: string };
    info: string;
  }
  export function dkimVerify(
    message: Buffer | string,
    options?: { resolver?: (name: string, type: string) => Promise<string[][]> },
  ): Promise<{ results: DkimResult[] }>;
}
