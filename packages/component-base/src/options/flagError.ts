/** A user mistake on the command line or in configuration: reported as a message, never a stack trace. */
export class FlagError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FlagError';
  }
}
