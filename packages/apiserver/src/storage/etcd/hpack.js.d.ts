/** The part of hpack.js (HPACK, RFC 7541) the etcd client uses: decoding header blocks. */
declare module 'hpack.js' {
  export interface HeaderField {
    name: string;
    value: string;
  }
  export interface Decompressor {
    write(block: Buffer): void;
    /** Decodes what was written; throws on a malformed block. */
    execute(): void;
    read(): HeaderField | null;
    updateTableSize(size: number): void;
  }
  export const decompressor: { create(options: { table: { size: number } }): Decompressor };
}
