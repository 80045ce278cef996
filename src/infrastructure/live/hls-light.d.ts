// hls.js ships no types for its light build's entry; its API is the full build's (without the
// features it leaves out: alternate audio, subtitles, DRM, CMCD), so the full build's types serve.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
