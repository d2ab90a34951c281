/** The widget's styles, inside its shadow root: the host page's CSS cannot reach in, and these cannot leak out. */
export const STYLES = `
:host{display:block;max-width:42rem;font:16px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--sk-text,#111827);
  background:var(--sk-background,#fff);--sk-accent:var(--sk-primary,#1d4ed8);container-type:inline-size}
*{box-sizing:border-box}
.sk{padding:1rem;border:1px solid #d1d5db;border-radius:.5rem}
h2{font-size:1.25rem;margin:0 0 .75rem}h3{font-size:1rem;margin:0}
label,legend{font-weight:600}
select,input,textarea{font:inherit;padding:.375rem .5rem;border:1px solid #6b7280;border-radius:.25rem;background:#fff;color:#111827;max-width:100%}
button{font:inherit;cursor:pointer}
button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid var(--sk-accent);outline-offset:2px}
.primary{background:var(--sk-accent);color:#fff;border:0;border-radius:.25rem;padding:.5rem 1rem;font-weight:600}
.primary[disabled]{opacity:.6;cursor:progress}
.month-nav{display:flex;align-items:center;justify-content:space-between;margin:.5rem 0}
.month-nav button{border:1px solid #6b7280;background:#fff;color:#111827;border-radius:.25rem;width:2.5rem;height:2.5rem;font-size:1.25rem}
table[role=grid]{width:100%;border-collapse:collapse;table-layout:fixed}
th{font-size:.75rem;font-weight:600;color:#374151;padding:.25rem 0}
td{padding:1px;position:relative}
td button{width:100%;min-height:2.75rem;border:1px solid transparent;border-radius:.25rem;display:flex;align-items:flex-start;justify-content:center;padding:.25rem 0 0;background:#fff;color:#4b5563}
td button.available{background:#ecfdf5;color:#064e3b}
td button.unavailable{text-decoration:line-through}
td button.check-in{border-color:#047857}
td button.in-range{background:#dbeafe;color:#1e3a8a}
td button.selected{background:var(--sk-accent);color:#fff}
td button[aria-disabled=true]{cursor:default}
.rate{position:absolute;left:0;right:0;bottom:.3rem;text-align:center;font-size:.625rem;line-height:1;color:#064e3b;pointer-events:none}
td:has(button.selected) .rate{color:#fff}td:has(button.in-range) .rate{color:#1e3a8a}
.legend{font-size:.875rem;color:#374151}
fieldset{border:1px solid #d1d5db;border-radius:.25rem;margin:.75rem 0;padding:.5rem .75rem}
.field{display:flex;flex-wrap:wrap;gap:.25rem .75rem;align-items:center;margin:.375rem 0}
.field label{flex:1 1 12rem}
.field input[type=number]{width:5rem}
.hint{font-weight:400;color:#374151;font-size:.875rem}
.quote table{width:100%;border-collapse:collapse}.quote td,.quote th{padding:.25rem;border-bottom:1px solid #e5e7eb;text-align:left}
.quote .n{text-align:right}
.error{color:#991b1b;font-weight:600}
.terms h4{font-size:.9375rem;margin:.75rem 0 .25rem}.terms ul{margin:0;padding-left:1.25rem}
.terms-text{white-space:pre-line;max-height:10rem;overflow:auto;border:1px solid #d1d5db;border-radius:.25rem;padding:.5rem;font-size:.875rem}
.terms-text:focus-visible{outline:3px solid var(--sk-accent);outline-offset:2px}
.field.accept{flex-wrap:nowrap;align-items:flex-start}.field.accept input{margin-top:.3rem;width:1.25rem;height:1.25rem;flex:none}
.field.accept label{flex:1 1 auto}
input[aria-invalid=true]{outline:2px solid #991b1b;outline-offset:2px}
.done{background:#ecfdf5;border-radius:.25rem;padding:.75rem}
a{color:var(--sk-accent)}
.sr-only{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.gallery{position:relative;margin:0 0 .75rem}
.slides{display:flex;overflow-x:auto;scroll-snap-type:x mandatory;overscroll-behavior-x:contain;scrollbar-width:none;border-radius:.375rem;background:#e5e7eb}
.slides::-webkit-scrollbar{display:none}
.slides:focus-visible{outline:3px solid var(--sk-accent);outline-offset:2px}
.slide{flex:0 0 100%;scroll-snap-align:start;scroll-snap-stop:always;aspect-ratio:3/2}
.slide picture,.slide img{display:block;width:100%;height:100%}.slide img{object-fit:cover}
.photo-prev,.photo-next{position:absolute;top:50%;transform:translateY(-50%);width:2.75rem;height:2.75rem;border:0;border-radius:50%;
  background:rgba(255,255,255,.92);color:#111827;font-size:1.75rem;line-height:1;box-shadow:0 1px 3px rgba(0,0,0,.3)}
.photo-prev{left:.5rem}.photo-next{right:.5rem}.photo-prev[disabled],.photo-next[disabled]{visibility:hidden}
.photo-count{position:absolute;right:.5rem;bottom:.5rem;background:rgba(17,24,39,.8);color:#fff;font-size:.75rem;padding:.125rem .5rem;border-radius:1rem}
.description{white-space:pre-line;margin:0 0 .5rem}
.facts{display:flex;flex-wrap:wrap;gap:.375rem;list-style:none;margin:0 0 .75rem;padding:0}
.facts li{background:#f3f4f6;border-radius:1rem;padding:.125rem .625rem;font-size:.875rem;color:#1f2937}
@container (max-width:28rem){.sk{padding:.5rem}td button{min-height:2.5rem}.rate{font-size:.5625rem}.field label{flex-basis:100%}}
`;
