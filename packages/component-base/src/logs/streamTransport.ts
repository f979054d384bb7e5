import TransportStream from 'winston-transport';

const MESSAGE = Symbol.for('message');

/** A winston transport writing formatted lines synchronously to a stream (standard error). */
export class StreamTransport extends TransportStream {
  constructor(
    private readonly stream: { write(text: string): unknown },
    level: string,
  ) {
    super({ level });
  }

  override log(info: Record<string | symbol, unknown>, next: () => void): void {
    this.stream.write(`${String(info[MESSAGE])}\n`);
    next();
  }
}
