import type { KindDeclaration } from '@orch/api';
import { Strategy } from '../strategy';

type StrategyFactory = (decl: KindDeclaration<any>) => Strategy;

/** Kinds whose behaviour goes beyond the generic strategy, by `<group>/<plural>`. */
const strategies: Record<string, StrategyFactory> = {};

/** The strategy of a kind: its own where it has one, the generic one otherwise. */
export function strategyFor(decl: KindDeclaration<any>): Strategy {
  const factory = strategies[`${decl.group}/${decl.plural}`];
  return factory ? factory(decl) : new Strategy(decl);
}
