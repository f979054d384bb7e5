/**
 * Splits a byte stream into frames, each holding one encoded watch event. The JSON stream has
 * one event per line; a protobuf stream prefixes each frame with its 4-byte big-endian length.
 */
export interface Framer {
  /** Feeds a chunk and returns the frames completed by it; partial frames are kept. */
  push(chunk: Buffer): Buffer[];
  /** Returns what remains at end of stream as a final frame, if anything. */
  flush(): Buffer[];
}

/** Newline-delimited frames; blank lines are skipped. */
export class LineFramer implements Framer {
  private pending: Buffer[] = [];

  push(chunk: Buffer): Buffer[] {
    const frames: Buffer[] = [];
    let start = 0;
    for (let i = chunk.indexOf(0x0a); i !== -1; i = chunk.indexOf(0x0a, start)) {
      this.pending.push(chunk.subarray(start, i));
      const line = Buffer.concat(this.pending);
      this.pending = [];
      if (line.toString('utf8').trim() !== '') {
        frames.push(line);
      }
      start = i + 1;
    }
    if (start < chunk.length) {
      this.pending.push(chunk.subarray(start));
    }
    return frames;
  }

  flush(): Buffer[] {
    const rest = Buffer.concat(this.pending);
    this.pending = [];
    return rest.toString('utf8').trim() === '' ? [] : [rest];
  }
}

/** Frames each prefixed by a 4-byte big-endian length, as the protobuf watch stream uses. */
export class LengthPrefixedFramer implements Framer {
  private buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): Buffer[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const frames: Buffer[] = [];
    while (this.buffer.length >= 4) {
      const size = this.buffer.readUInt32BE(0);
      if (this.buffer.length < 4 + size) {
        break;
      }
      frames.push(this.buffer.subarray(4, 4 + size));
      this.buffer = this.buffer.subarray(4 + size);
    }
    return frames;
  }

  flush(): Buffer[] {
    if (this.buffer.length > 0) {
      const left = this.buffer.length;
      this.buffer = Buffer.alloc(0);
      throw new Error(`watch stream ended inside a frame (${left} bytes left)`);
    }
    return [];
  }
}
