/** Types of the decoder packages that ship none of their own (seek-bzip) or ship ESM types for a CommonJS module (xz-decompress). */
declare module 'seek-bzip' {
  /** where decoded bytes go, one at a time (seek-bzip takes any object with writeByte) */
  interface ByteSink {
    writeByte(byte: number): void;
  }
  const Bunzip: {
    /** throws on data that is not bzip2 or is corrupt; with a sink, answers nothing */
    decode(input: Buffer, output: ByteSink): void;
  };
  export default Bunzip;
}
