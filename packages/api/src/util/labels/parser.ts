import { LabelSelectorError } from './errors';
import { LabelOperator, LabelRequirement, newRequirement, validateLabelKey } from './requirement';
import { LabelsSelector, selectorFromRequirements } from './selector';

/*
 * The label selector grammar of Kubernetes (labels.Parse), token for token, so that every input is
 * accepted or rejected as Kubernetes does, with the same messages:
 *
 *   selector     = [ requirement ] *( "," requirement )
 *   requirement  = [ "!" ] key [ ( "=" | "==" | "!=" | ">" | "<" ) value | ( "in" | "notin" ) "(" values ")" ]
 */

const enum Tok {
  Error,
  End,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const keywords: ReadonlyMap<string, Tok> = new Map([
  [')', Tok.ClosedPar],
  [',', Tok.Comma],
  ['!', Tok.DoesNotExist],
  ['==', Tok.DoubleEquals],
  ['=', Tok.Equals],
  ['>', Tok.GreaterThan],
  ['in', Tok.In],
  ['<', Tok.LessThan],
  ['!=', Tok.NotEquals],
  ['notin', Tok.NotIn],
  ['(', Tok.OpenPar],
]);

function isWhitespace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r' || c === '\n';
}

function isSpecialSymbol(c: string): boolean {
  return c === '=' || c === '!' || c === '(' || c === ')' || c === ',' || c === '>' || c === '<';
}

/** Splits the input into tokens; the list always ends with an End token. */
function lex(input: string): { tok: Tok; lit: string }[] {
  const out: { tok: Tok; lit: string }[] = [];
  let pos = 0;
  const n = input.length;
  for (;;) {
    // Kubernetes' lexer stops at a NUL byte as at the end of input.
    while (pos < n && isWhitespace(input[pos]!)) pos++;
    if (pos >= n || input[pos] === '\0') {
      out.push({ tok: Tok.End, lit: '' });
      return out;
    }
    const start = pos;
    if (isSpecialSymbol(input[pos]!)) {
      // Longest run of symbols that is still a token: "!=" and "==" are one token, "=(" two.
      let tok: Tok | undefined;
      let end = pos;
      while (pos < n && isSpecialSymbol(input[pos]!)) {
        const t = keywords.get(input.slice(start, pos + 1));
        if (t !== undefined) {
          tok = t;
          end = pos + 1;
        } else if (tok !== undefined) {
          break;
        }
        pos++;
      }
      if (tok === undefined) {
        out.push({ tok: Tok.Error, lit: `error expected: keyword found '${input.slice(start, pos)}'` });
        continue;
      }
      pos = end;
      out.push({ tok, lit: input.slice(start, end) });
      continue;
    }
    while (pos < n && input[pos] !== '\0' && !isSpecialSymbol(input[pos]!) && !isWhitespace(input[pos]!))
      pos++;
    const lit = input.slice(start, pos);
    out.push({ tok: keywords.get(lit) ?? Tok.Identifier, lit });
  }
}

const binaryOperators = 'in, notin, =, ==, !=, gt, lt';

class Parser {
  private position = 0;
  constructor(private readonly items: { tok: Tok; lit: string }[]) {}

  /** In a values context the keywords `in` and `notin` are plain identifiers. */
  private static asValue(tok: Tok): Tok {
    return tok === Tok.In || tok === Tok.NotIn ? Tok.Identifier : tok;
  }

  private lookahead(values: boolean): { tok: Tok; lit: string } {
    const it = this.items[this.position]!;
    return values ? { tok: Parser.asValue(it.tok), lit: it.lit } : it;
  }

  private consume(values: boolean): { tok: Tok; lit: string } {
    const it = this.lookahead(values);
    if (this.position < this.items.length - 1) this.position++;
    return it;
  }

  parse(): LabelRequirement[] {
    const reqs: LabelRequirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead(true);
      switch (tok) {
        case Tok.Identifier:
        case Tok.DoesNotExist: {
          let r: LabelRequirement;
          try {
            r = this.parseRequirement();
          } catch (e) {
            throw new LabelSelectorError(`unable to parse requirement: ${(e as Error).message}`);
          }
          reqs.push(r);
          const next = this.consume(true);
          switch (next.tok) {
            case Tok.End:
              return reqs;
            case Tok.Comma: {
              const t2 = this.lookahead(true);
              if (t2.tok !== Tok.Identifier && t2.tok !== Tok.DoesNotExist) {
                throw new LabelSelectorError(`found '${t2.lit}', expected: identifier after ','`);
              }
              break;
            }
            default:
              throw new LabelSelectorError(`found '${next.lit}', expected: ',' or 'end of string'`);
          }
          break;
        }
        case Tok.End:
          return reqs;
        default:
          throw new LabelSelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): LabelRequirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, [...values].sort());
  }

  private parseKeyAndInferOperator(): { key: string; operator: LabelOperator | undefined } {
    let operator: LabelOperator | undefined;
    let { tok, lit } = this.consume(true);
    if (tok === Tok.DoesNotExist) {
      operator = '!';
      ({ tok, lit } = this.consume(true));
    }
    if (tok !== Tok.Identifier) throw new LabelSelectorError(`found '${lit}', expected: identifier`);
    validateLabelKey(lit);
    const next = this.lookahead(true).tok;
    if ((next === Tok.End || next === Tok.Comma) && operator !== '!') operator = 'exists';
    return { key: lit, operator };
  }

  private parseOperator(): LabelOperator {
    const { tok, lit } = this.consume(false);
    switch (tok) {
      case Tok.In:
        return 'in';
      case Tok.Equals:
        return '=';
      case Tok.DoubleEquals:
        return '==';
      case Tok.GreaterThan:
        return 'gt';
      case Tok.LessThan:
        return 'lt';
      case Tok.NotIn:
        return 'notin';
      case Tok.NotEquals:
        return '!=';
      default:
        throw new LabelSelectorError(`found '${lit}', expected: ${binaryOperators}`);
    }
  }

  private parseValues(): Set<string> {
    const open = this.consume(true);
    if (open.tok !== Tok.OpenPar) throw new LabelSelectorError(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead(true);
    switch (tok) {
      case Tok.Identifier:
      case Tok.Comma: {
        const s = this.parseIdentifiersList();
        if (this.consume(true).tok !== Tok.ClosedPar) {
          throw new LabelSelectorError(`found '${lit}', expected: ')'`);
        }
        return s;
      }
      case Tok.ClosedPar:
        this.consume(true);
        return new Set(['']);
      default:
        throw new LabelSelectorError(`found '${lit}', expected: ',', ')' or identifier`);
    }
  }

  /** A possibly empty comma-separated list of possibly empty identifiers: `(a,b)`, `(,a)`, `(a,)`. */
  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume(true);
      switch (tok) {
        case Tok.Identifier: {
          s.add(lit);
          const t2 = this.lookahead(true);
          if (t2.tok === Tok.Comma) continue;
          if (t2.tok === Tok.ClosedPar) return s;
          throw new LabelSelectorError(`found '${t2.lit}', expected: ',' or ')'`);
        }
        case Tok.Comma: {
          if (s.size === 0) s.add('');
          const t2 = this.lookahead(true).tok;
          if (t2 === Tok.ClosedPar) {
            s.add('');
            return s;
          }
          if (t2 === Tok.Comma) {
            this.consume(true);
            s.add('');
          }
          break;
        }
        default:
          throw new LabelSelectorError(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): Set<string> {
    const t = this.lookahead(true).tok;
    if (t === Tok.End || t === Tok.Comma) return new Set(['']);
    const { tok, lit } = this.consume(true);
    if (tok === Tok.Identifier) return new Set([lit]);
    throw new LabelSelectorError(`found '${lit}', expected: identifier`);
  }
}

/**
 * Parses a label selector string (`app=web,tier!=db,env in (a,b),!legacy,rev>2`) as Kubernetes'
 * labels.Parse does. The empty string selects everything. Throws {@link LabelSelectorError} with
 * Kubernetes' message on bad input.
 */
export function parseLabelSelector(selector: string): LabelsSelector {
  return selectorFromRequirements(new Parser(lex(selector)).parse());
}
