/** Types of the decoder packages that ship none of their own (seek-bzip) or ship ESM types for a CommonJS module (xz-decompress). */
declare module 'seek-bzip' {
  const Bunzip: {
    /** throws on data that is not bzip2 or is corrupt */
    decode(input: Buffer, output?: Buffer): Buffer;
  };
  export default Bunzip;
}
