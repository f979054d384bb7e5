/** The outcome codes of a plugin call, as Kubernetes' scheduler framework defines them. */
export enum Code {
  Success = 0,
  Error = 1,
  Unschedulable = 2,
  UnschedulableAndUnresolvable = 3,
  Wait = 4,
  Skip = 5,
}

const CODE_NAMES: Record<Code, string> = {
  [Code.Success]: 'Success',
  [Code.Error]: 'Error',
  [Code.Unschedulable]: 'Unschedulable',
  [Code.UnschedulableAndUnresolvable]: 'UnschedulableAndUnresolvable',
  [Code.Wait]: 'Wait',
  [Code.Skip]: 'Skip',
};

/** The result of a plugin call: a code and the reasons behind it. */
export class Status {
  /** The plugin that produced a failure, filled in by the framework. */
  failedPlugin = '';

  constructor(
    readonly code: Code,
    readonly reasons: readonly string[] = [],
  ) {}

  static success(): Status {
    return SUCCESS;
  }

  static error(message: string): Status {
    return new Status(Code.Error, [message]);
  }

  static unschedulable(...reasons: string[]): Status {
    return new Status(Code.Unschedulable, reasons);
  }

  static unresolvable(...reasons: string[]): Status {
    return new Status(Code.UnschedulableAndUnresolvable, reasons);
  }

  isSuccess(): boolean {
    return this.code === Code.Success;
  }

  /** Unschedulable or UnschedulableAndUnresolvable. */
  isUnschedulable(): boolean {
    return this.code === Code.Unschedulable || this.code === Code.UnschedulableAndUnresolvable;
  }

  codeName(): string {
    return CODE_NAMES[this.code];
  }

  message(): string {
    return this.reasons.join(', ');
  }

  withPlugin(name: string): Status {
    if (this === SUCCESS) return this;
    this.failedPlugin = name;
    return this;
  }
}

const SUCCESS = new Status(Code.Success);

/** Success when the status is undefined (plugins may return nothing for success). */
export function isSuccess(status: Status | undefined): boolean {
  return status === undefined || status.code === Code.Success;
}
