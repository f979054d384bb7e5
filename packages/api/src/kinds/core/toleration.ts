import type { Static } from '@sinclair/typebox';
import { int64, str, struct } from '../../schema/fields';
import type { FieldErrorLike } from '../../schema/fields';
import { isQualifiedName, isValidLabelValue } from '../../util/names';
import { child, invalid, notSupported } from '../../validation/field-error';

const taintEffects = ['NoSchedule', 'PreferNoSchedule', 'NoExecute'] as const;

export const TolerationSchema = struct(
  'io.k8s.api.core.v1.Toleration',
  {
    key: str({
      proto: 1,
      description: 'Taint key tolerated; empty with operator Exists matches every taint.',
    }),
    operator: str({ proto: 2, description: 'Exists or Equal; Equal by default.' }),
    value: str({ proto: 3, description: 'Taint value matched; empty with operator Exists.' }),
    effect: str({
      proto: 4,
      description: 'Taint effect matched: NoSchedule, PreferNoSchedule or NoExecute; all when empty.',
    }),
    tolerationSeconds: int64({
      proto: 5,
      description: 'How long a NoExecute taint is tolerated; forever when unset.',
    }),
  },
  {
    // Kubernetes' validateTolerations, for one entry.
    validate: (t, path) => {
      const errs: FieldErrorLike[] = [];
      const operator = t.operator ?? '';
      if (t.key) {
        for (const msg of isQualifiedName(t.key)) errs.push(invalid(child(path, 'key'), t.key, msg));
      }
      if (!t.key && operator !== 'Exists') {
        errs.push(
          invalid(
            child(path, 'operator'),
            operator,
            'operator must be Exists when `key` is empty, which means "match all values and all keys"',
          ),
        );
      }
      if (t.tolerationSeconds !== undefined && t.effect !== 'NoExecute') {
        errs.push(
          invalid(
            child(path, 'effect'),
            t.effect ?? '',
            "effect must be 'NoExecute' when `tolerationSeconds` is set",
          ),
        );
      }
      switch (operator) {
        case '':
        case 'Equal':
          for (const msg of isValidLabelValue(t.value ?? ''))
            errs.push(invalid(child(path, 'operator'), t.value ?? '', msg));
          break;
        case 'Exists':
          if (t.value)
            errs.push(invalid(child(path, 'operator'), t, "value must be empty when `operator` is 'Exists'"));
          break;
        default:
          errs.push(notSupported(child(path, 'operator'), operator, ['Equal', 'Exists']));
      }
      if (t.effect && !(taintEffects as readonly string[]).includes(t.effect)) {
        errs.push(notSupported(child(path, 'effect'), t.effect, taintEffects));
      }
      return errs;
    },
  },
);
export type Toleration = Static<typeof TolerationSchema>;
