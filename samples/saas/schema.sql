-- SaaS accounts: the back end of a multi-tenant SaaS product, after AWS's single-table example.
-- Each customer is an account (a tenant); an account has users, and groups those users into
-- service groups that carry permissions (Engineering, Billing Admins, ...). A user may belong
-- to several accounts (a consultant working for two customers) and to several service groups;
-- a service group has many users: users and service groups are a many-to-many relationship.
--
-- The table: "SaaS", keys `pk` and `sk` (both strings, lower-case names). There is NO type
-- attribute: every key is `<prefix>:<id>` with `:` as the only separator, or the fixed literal
-- `metadata:account`, so the prefixes alone tell the entities apart (`.model SaaS` infers them).
--   pk  the item collection: `account:<accountId>` or `servicegroup:<serviceGroupId>`
--   sk  what the item is inside its collection: `metadata:account`, `user:<userId>`,
--       `servicegroup:<serviceGroupId>`
-- One index:
--   "inverted"  partition key = sk, sort key = pk (the table's key, flipped). Every item is
--               written once and is found from both of its ends: by pk in the table, by sk in
--               the index. That gives the reverse lookups of the many-to-many for free: the
--               index partition `user:<userId>` holds every account the user belongs to and
--               every service group the user is in.
-- User ids and service group ids are unique across all accounts (u1002, sg101); that is what
-- makes the index partition `user:u1002` mean one person, whatever the account.
--
-- Entities and their keys:
--   entity        | pk                            | sk                            | inverted: sk / pk
--   Account       | account:<accountId>           | metadata:account              | (read from the table)
--   User          | account:<accountId>           | user:<userId>                 | user:<userId> / account:<accountId>
--   ServiceGroup  | account:<accountId>           | servicegroup:<serviceGroupId> | servicegroup:<serviceGroupId> / account:<accountId>
--   Membership    | servicegroup:<serviceGroupId> | user:<userId>                 | user:<userId> / servicegroup:<serviceGroupId>
-- Every item is in "inverted" (every item has an sk). The Account items all share the index
-- partition `metadata:account`, which therefore lists every account: handy for an operator's
-- console with a few thousand tenants, but a hot and ever-growing partition at real scale.
--
-- Why memberships are `servicegroup:<serviceGroupId>` / `user:<userId>`: the edge of an
-- adjacency list, whose two key halves are the two ends of the relationship. Each half is one
-- `<prefix>:<id>` pair, the same shape as the User and ServiceGroup keys, so every entity has
-- uniform two-segment keys with the one separator `:`, and the edge reads in both directions:
-- by pk ("the users of service group sg101", a Query on the table) and by sk ("the service
-- groups of user u1002", a Query on "inverted"). The alternatives keep the edge inside the
-- account's collection but lose that: sk `servicegroup:sg101#user:u1002` mixes two separators,
-- and sk `membership:sg101:u1002` has three segments; in both the sk names no single entity,
-- so the inverted index partition would hold one edge and answer nothing.

DROP TABLE IF EXISTS "SaaS";
CREATE TABLE "SaaS" (pk S HASH, sk S RANGE)
  GLOBAL INDEX "inverted" (sk S HASH, pk S RANGE) PROJECTION ALL;

.quiet on

-- ---- Accounts ----------------------------------------------------------------------------
-- One item per account, in the account's own collection, under the fixed sort key
-- `metadata:account`: a fixed literal (not `account:<id>` again) so that a Query on
-- pk = 'account:acme' returns the metadata together with the users and service groups, and
-- GetItem (pk, 'metadata:account') reads just the account. `accountId` repeats the id in pk.
INSERT INTO "SaaS" VALUE {'pk': 'account:acme', 'sk': 'metadata:account', 'accountId': 'acme', 'companyName': 'Acme Analytics Inc.', 'plan': 'enterprise', 'seats': 50, 'billingEmail': 'billing@acme-analytics.com', 'region': 'us-east-1', 'createdAt': '2023-01-15T09:30:00Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:globex', 'sk': 'metadata:account', 'accountId': 'globex', 'companyName': 'Globex Logistics GmbH', 'plan': 'business', 'seats': 20, 'billingEmail': 'ap@globex-logistics.de', 'region': 'eu-central-1', 'createdAt': '2023-06-02T13:05:44Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:initech', 'sk': 'metadata:account', 'accountId': 'initech', 'companyName': 'Initech Payments LLC', 'plan': 'starter', 'seats': 5, 'billingEmail': 'finance@initech.io', 'region': 'us-west-2', 'createdAt': '2024-02-20T17:48:12Z'};

-- ---- Users -------------------------------------------------------------------------------
-- A user lives in the collection of the account it belongs to: pk `account:<accountId>`,
-- sk `user:<userId>`. So "all users of an account" is one Query with begins_with(sk, 'user:'),
-- and "one user of an account" is a GetItem. The item holds the user's profile as seen by that
-- account (role, last login). James Chen (u1002) and Lena Schmidt (u1005) work for two
-- accounts: they have one User item in each, with the same sk, so the inverted index gathers
-- both under `user:u1002` -- "which accounts is this user in".
INSERT INTO "SaaS" VALUE {'pk': 'account:acme', 'sk': 'user:u1001', 'accountId': 'acme', 'userId': 'u1001', 'email': 'maria.garcia@acme-analytics.com', 'displayName': 'Maria Garcia', 'role': 'owner', 'createdAt': '2023-01-15T09:31:02Z', 'lastLoginAt': '2024-03-05T14:22:10Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:acme', 'sk': 'user:u1002', 'accountId': 'acme', 'userId': 'u1002', 'email': 'james@chenconsulting.io', 'displayName': 'James Chen', 'role': 'admin', 'createdAt': '2023-01-16T10:02:45Z', 'lastLoginAt': '2024-03-04T08:15:33Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:acme', 'sk': 'user:u1003', 'accountId': 'acme', 'userId': 'u1003', 'email': 'priya.patel@acme-analytics.com', 'displayName': 'Priya Patel', 'role': 'member', 'createdAt': '2023-02-01T11:20:00Z', 'lastLoginAt': '2024-03-05T09:01:27Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:acme', 'sk': 'user:u1004', 'accountId': 'acme', 'userId': 'u1004', 'email': 'tom.okafor@acme-analytics.com', 'displayName': 'Tom Okafor', 'role': 'member', 'createdAt': '2023-04-12T15:45:19Z', 'lastLoginAt': '2024-02-28T16:40:02Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:acme', 'sk': 'user:u1005', 'accountId': 'acme', 'userId': 'u1005', 'email': 'lena.schmidt@datawerk.de', 'displayName': 'Lena Schmidt', 'role': 'member', 'createdAt': '2023-09-03T07:12:55Z', 'lastLoginAt': '2024-03-01T12:00:41Z'};

INSERT INTO "SaaS" VALUE {'pk': 'account:globex', 'sk': 'user:u2001', 'accountId': 'globex', 'userId': 'u2001', 'email': 'hank.scorpio@globex-logistics.de', 'displayName': 'Hank Scorpio', 'role': 'owner', 'createdAt': '2023-06-02T13:06:10Z', 'lastLoginAt': '2024-03-05T06:55:18Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:globex', 'sk': 'user:u2002', 'accountId': 'globex', 'userId': 'u2002', 'email': 'sofia.rossi@globex-logistics.de', 'displayName': 'Sofia Rossi', 'role': 'admin', 'createdAt': '2023-06-05T08:30:00Z', 'lastLoginAt': '2024-03-04T17:23:50Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:globex', 'sk': 'user:u2003', 'accountId': 'globex', 'userId': 'u2003', 'email': 'kwame.mensah@globex-logistics.de', 'displayName': 'Kwame Mensah', 'role': 'member', 'createdAt': '2023-07-19T12:14:37Z', 'lastLoginAt': '2024-03-02T10:48:05Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:globex', 'sk': 'user:u1002', 'accountId': 'globex', 'userId': 'u1002', 'email': 'james@chenconsulting.io', 'displayName': 'James Chen', 'role': 'member', 'createdAt': '2023-11-08T09:00:00Z', 'lastLoginAt': '2024-03-05T11:37:26Z'};

INSERT INTO "SaaS" VALUE {'pk': 'account:initech', 'sk': 'user:u3001', 'accountId': 'initech', 'userId': 'u3001', 'email': 'bill.lumbergh@initech.io', 'displayName': 'Bill Lumbergh', 'role': 'owner', 'createdAt': '2024-02-20T17:49:00Z', 'lastLoginAt': '2024-03-05T13:10:09Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:initech', 'sk': 'user:u3002', 'accountId': 'initech', 'userId': 'u3002', 'email': 'joanna.park@initech.io', 'displayName': 'Joanna Park', 'role': 'member', 'createdAt': '2024-02-21T09:15:22Z', 'lastLoginAt': '2024-03-04T15:05:44Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:initech', 'sk': 'user:u3003', 'accountId': 'initech', 'userId': 'u3003', 'email': 'samir.n@initech.io', 'displayName': 'Samir Nagheenanajar', 'role': 'member', 'createdAt': '2024-02-22T10:40:03Z', 'lastLoginAt': '2024-02-29T18:30:00Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:initech', 'sk': 'user:u1005', 'accountId': 'initech', 'userId': 'u1005', 'email': 'lena.schmidt@datawerk.de', 'displayName': 'Lena Schmidt', 'role': 'admin', 'createdAt': '2024-02-26T08:05:51Z', 'lastLoginAt': '2024-03-05T07:45:12Z'};

-- ---- Service groups ----------------------------------------------------------------------
-- A service group also lives in its account's collection: pk `account:<accountId>`,
-- sk `servicegroup:<serviceGroupId>`. "All groups of an account" is begins_with(sk,
-- 'servicegroup:'); and in the inverted index the partition `servicegroup:<id>` holds this one
-- item, whose pk names the owning account -- "which account owns group sg201".
INSERT INTO "SaaS" VALUE {'pk': 'account:acme', 'sk': 'servicegroup:sg101', 'accountId': 'acme', 'serviceGroupId': 'sg101', 'groupName': 'Engineering', 'permissions': <<'deploy', 'read', 'write'>>, 'createdAt': '2023-01-15T09:40:00Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:acme', 'sk': 'servicegroup:sg102', 'accountId': 'acme', 'serviceGroupId': 'sg102', 'groupName': 'Data Science', 'permissions': <<'read', 'query'>>, 'createdAt': '2023-02-01T11:25:00Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:acme', 'sk': 'servicegroup:sg103', 'accountId': 'acme', 'serviceGroupId': 'sg103', 'groupName': 'Billing Admins', 'permissions': <<'billing', 'read'>>, 'createdAt': '2023-01-15T09:42:10Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:globex', 'sk': 'servicegroup:sg201', 'accountId': 'globex', 'serviceGroupId': 'sg201', 'groupName': 'Fleet Operations', 'permissions': <<'read', 'write'>>, 'createdAt': '2023-06-02T13:20:31Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:globex', 'sk': 'servicegroup:sg202', 'accountId': 'globex', 'serviceGroupId': 'sg202', 'groupName': 'Finance', 'permissions': <<'billing', 'read'>>, 'createdAt': '2023-06-05T08:35:00Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:initech', 'sk': 'servicegroup:sg301', 'accountId': 'initech', 'serviceGroupId': 'sg301', 'groupName': 'Platform', 'permissions': <<'deploy', 'read', 'write'>>, 'createdAt': '2024-02-20T18:00:00Z'};
INSERT INTO "SaaS" VALUE {'pk': 'account:initech', 'sk': 'servicegroup:sg302', 'accountId': 'initech', 'serviceGroupId': 'sg302', 'groupName': 'Customer Support', 'permissions': <<'read', 'tickets'>>, 'createdAt': '2024-02-21T09:30:00Z'};

-- ---- Memberships (the many-to-many) -------------------------------------------------------
-- One edge item per (service group, user): pk `servicegroup:<serviceGroupId>`,
-- sk `user:<userId>`. Read by pk, a group's partition lists its members (a Query on the
-- table); read by sk in "inverted", the partition `user:<userId>` lists the user's groups next
-- to the user's accounts (the User items share that sk). The edge carries what belongs to the
-- relationship itself (the member's role in the group, when and by whom it was added) and
-- copies the ids from its keys, plus the account, so a membership read alone is self-contained.
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg101', 'sk': 'user:u1001', 'serviceGroupId': 'sg101', 'userId': 'u1001', 'accountId': 'acme', 'groupRole': 'lead', 'addedAt': '2023-01-15T09:40:05Z', 'addedBy': 'u1001'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg101', 'sk': 'user:u1002', 'serviceGroupId': 'sg101', 'userId': 'u1002', 'accountId': 'acme', 'groupRole': 'member', 'addedAt': '2023-01-16T10:05:00Z', 'addedBy': 'u1001'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg101', 'sk': 'user:u1003', 'serviceGroupId': 'sg101', 'userId': 'u1003', 'accountId': 'acme', 'groupRole': 'member', 'addedAt': '2023-02-01T11:21:40Z', 'addedBy': 'u1002'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg101', 'sk': 'user:u1004', 'serviceGroupId': 'sg101', 'userId': 'u1004', 'accountId': 'acme', 'groupRole': 'member', 'addedAt': '2023-04-12T15:50:00Z', 'addedBy': 'u1002'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg102', 'sk': 'user:u1001', 'serviceGroupId': 'sg102', 'userId': 'u1001', 'accountId': 'acme', 'groupRole': 'member', 'addedAt': '2023-02-01T11:25:30Z', 'addedBy': 'u1001'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg102', 'sk': 'user:u1003', 'serviceGroupId': 'sg102', 'userId': 'u1003', 'accountId': 'acme', 'groupRole': 'lead', 'addedAt': '2023-02-01T11:26:02Z', 'addedBy': 'u1001'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg102', 'sk': 'user:u1005', 'serviceGroupId': 'sg102', 'userId': 'u1005', 'accountId': 'acme', 'groupRole': 'member', 'addedAt': '2023-09-03T07:20:14Z', 'addedBy': 'u1003'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg103', 'sk': 'user:u1001', 'serviceGroupId': 'sg103', 'userId': 'u1001', 'accountId': 'acme', 'groupRole': 'lead', 'addedAt': '2023-01-15T09:42:15Z', 'addedBy': 'u1001'};

INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg201', 'sk': 'user:u2001', 'serviceGroupId': 'sg201', 'userId': 'u2001', 'accountId': 'globex', 'groupRole': 'lead', 'addedAt': '2023-06-02T13:21:00Z', 'addedBy': 'u2001'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg201', 'sk': 'user:u2003', 'serviceGroupId': 'sg201', 'userId': 'u2003', 'accountId': 'globex', 'groupRole': 'member', 'addedAt': '2023-07-19T12:20:00Z', 'addedBy': 'u2001'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg201', 'sk': 'user:u1002', 'serviceGroupId': 'sg201', 'userId': 'u1002', 'accountId': 'globex', 'groupRole': 'member', 'addedAt': '2023-11-08T09:05:12Z', 'addedBy': 'u2002'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg202', 'sk': 'user:u2001', 'serviceGroupId': 'sg202', 'userId': 'u2001', 'accountId': 'globex', 'groupRole': 'member', 'addedAt': '2023-06-05T08:36:00Z', 'addedBy': 'u2002'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg202', 'sk': 'user:u2002', 'serviceGroupId': 'sg202', 'userId': 'u2002', 'accountId': 'globex', 'groupRole': 'lead', 'addedAt': '2023-06-05T08:35:10Z', 'addedBy': 'u2001'};

INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg301', 'sk': 'user:u3001', 'serviceGroupId': 'sg301', 'userId': 'u3001', 'accountId': 'initech', 'groupRole': 'lead', 'addedAt': '2024-02-20T18:00:30Z', 'addedBy': 'u3001'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg301', 'sk': 'user:u3002', 'serviceGroupId': 'sg301', 'userId': 'u3002', 'accountId': 'initech', 'groupRole': 'member', 'addedAt': '2024-02-21T09:20:00Z', 'addedBy': 'u3001'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg301', 'sk': 'user:u1005', 'serviceGroupId': 'sg301', 'userId': 'u1005', 'accountId': 'initech', 'groupRole': 'member', 'addedAt': '2024-02-26T08:10:00Z', 'addedBy': 'u3001'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg302', 'sk': 'user:u3002', 'serviceGroupId': 'sg302', 'userId': 'u3002', 'accountId': 'initech', 'groupRole': 'member', 'addedAt': '2024-02-21T09:31:00Z', 'addedBy': 'u3001'};
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg302', 'sk': 'user:u3003', 'serviceGroupId': 'sg302', 'userId': 'u3003', 'accountId': 'initech', 'groupRole': 'lead', 'addedAt': '2024-02-22T10:45:00Z', 'addedBy': 'u3001'};

.quiet off
