import type { Static } from '@sinclair/typebox';
import { list, map, str, struct } from '../../schema/fields';

export const UserInfoSchema = struct('io.k8s.api.authentication.v1.UserInfo', {
  username: str({ proto: 1, description: 'Name that uniquely identifies the user among active users.' }),
  uid: str({ proto: 2, description: 'Identifier of the user that stays the same over time.' }),
  groups: list(str(), { proto: 3, description: 'Groups the user belongs to.' }),
  extra: map(list(str()), {
    proto: 4,
    protoWrapper: 'k8s.io.api.authentication.v1.ExtraValue',
    description: 'Additional information from the authenticator.',
  }),
});
export type UserInfo = Static<typeof UserInfoSchema>;
