-- SaaS accounts: access patterns. Load schema.sql first, then:
--   keyhole saas.kh --patterns samples/saas/patterns.sql

-- pattern: get an account
-- rate: 100/s
-- GetItem: the account's metadata sits at the fixed sort key of its own collection.
SELECT * FROM "SaaS" WHERE pk = 'account:acme' AND sk = 'metadata:account';

-- pattern: load an account with its users and service groups
-- rate: 30/s
-- One Query on the item collection returns the metadata, the users and the groups together
-- (sorted by sk: metadata:, servicegroup:..., user:...): what an admin console's first screen
-- needs, in one request.
SELECT * FROM "SaaS" WHERE pk = 'account:acme';

-- pattern: list the users of an account
-- rate: 20/s
-- The same collection, narrowed by the sk prefix.
SELECT * FROM "SaaS" WHERE pk = 'account:globex' AND begins_with(sk, 'user:');

-- pattern: list the service groups of an account
-- rate: 20/s
SELECT * FROM "SaaS" WHERE pk = 'account:acme' AND begins_with(sk, 'servicegroup:');

-- pattern: get a user of an account
-- rate: 200/s
-- GetItem: the account and the user id make the full primary key.
SELECT * FROM "SaaS" WHERE pk = 'account:initech' AND sk = 'user:u1005';

-- pattern: list the members of a service group
-- rate: 40/s
-- The membership edges of a group share its pk, so one Query on the table lists them.
SELECT userId, groupRole, addedAt FROM "SaaS" WHERE pk = 'servicegroup:sg101' AND begins_with(sk, 'user:');

-- pattern: list the members of several service groups
-- rate: 10/s
-- A few partitions by IN: one Query per group, merged (two Queries, one statement).
SELECT * FROM "SaaS" WHERE pk IN ['servicegroup:sg201', 'servicegroup:sg202'];

-- pattern: list the accounts a user belongs to
-- rate: 50/s
-- The reverse lookup: in "inverted" the user's sk is the partition key. The User items of
-- u1002 (one per account) have pk account:..., so begins_with on the index's sort key (the
-- table's pk) keeps just them.
SELECT * FROM "SaaS"."inverted" WHERE sk = 'user:u1002' AND begins_with(pk, 'account:');

-- pattern: list the service groups a user is in
-- rate: 50/s
-- The same index partition; the membership edges have pk servicegroup:..., so the other prefix
-- keeps just them.
SELECT serviceGroupId, accountId, groupRole FROM "SaaS"."inverted" WHERE sk = 'user:u1001' AND begins_with(pk, 'servicegroup:');

-- pattern: everything about a user across accounts
-- rate: 10/s
-- The whole index partition: the user's accounts and groups in one Query.
SELECT * FROM "SaaS"."inverted" WHERE sk = 'user:u1002';

-- pattern: list all accounts
-- rate: 1/min
-- Every Account item has sk metadata:account, so in "inverted" they all share one partition:
-- an operator's list of tenants, sorted by account id, with no extra index. (Fine for a few
-- thousand accounts; at larger scale that one partition becomes hot.)
SELECT accountId, companyName, plan FROM "SaaS"."inverted" WHERE sk = 'metadata:account';

-- pattern: add a user to a service group
-- rate: 2/s
-- A write: one transaction, so the edge is only created if the user really is an active
-- member of the group's account (the EXISTS is a condition check on the User item; its extra
-- condition is required by DynamoDB). The INSERT fails if the edge already exists, so this
-- succeeds exactly once after a fresh load.
BEGIN;
EXISTS(SELECT * FROM "SaaS" WHERE pk = 'account:acme' AND sk = 'user:u1004' AND role <> 'suspended');
INSERT INTO "SaaS" VALUE {'pk': 'servicegroup:sg102', 'sk': 'user:u1004', 'serviceGroupId': 'sg102', 'userId': 'u1004', 'accountId': 'acme', 'groupRole': 'member', 'addedAt': '2024-03-05T15:00:00Z', 'addedBy': 'u1003'};
COMMIT;

-- refused: find a user by email
-- Why refused: email is not a key of the table or of any index, so DynamoDB would have to
-- read every item (a Scan). Fix: when the account is known, query its collection and filter
-- (pk = 'account:acme' AND begins_with(sk, 'user:') AND email = ...); for a sign-in lookup
-- across accounts, add an index keyed on email:
--   ALTER TABLE "SaaS" ADD GLOBAL INDEX "byEmail" (email S HASH, pk S RANGE);
SELECT * FROM "SaaS" WHERE email = 'james@chenconsulting.io';

-- refused: list every service group of every account
-- Why refused: a condition on the sort key alone pins no partition; a sort key orders items
-- only inside one partition, so this too would be a Scan. Fix: ask per account
-- (pk = 'account:acme' AND begins_with(sk, 'servicegroup:')), or pk IN [...] for a few accounts.
SELECT * FROM "SaaS" WHERE begins_with(sk, 'servicegroup:');

-- refused: read the inverted index by account
-- Why refused: in "inverted" pk is the sort key; the index's partition key is sk, and the
-- WHERE does not pin it. Fix: an account's items are a partition of the table itself:
-- SELECT * FROM "SaaS" WHERE pk = 'account:acme'.
SELECT * FROM "SaaS"."inverted" WHERE pk = 'account:acme';
