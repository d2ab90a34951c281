/** Types of `heic-decode` (it ships none): libheif compiled to WebAssembly, for phones' HEIC photos. */
declare module 'heic-decode' {
  interface DecodedImage {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  interface HeifImage {
    width: number;
    height: number;
    decode(): Promise<DecodedImage>;
  }
  function decode(input: { buffer: Uint8Array }): Promise<DecodedImage>;
  namespace decode {
    /** The images of the file with their sizes, each decoded only when asked. */
    function all(input: { buffer: Uint8Array }): Promise<HeifImage[] & { dispose(): void }>;
  }
  export default decode;
}
