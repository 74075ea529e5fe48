// hls.js ships no types for its light build; it is the same API minus subtitles, alt audio and DRM.
declare module 'hls.js/light' {
  export * from 'hls.js';
  export { default } from 'hls.js';
}
