-- Agents: the memory of an AI assistant that serves many tenants (companies). Each tenant's
-- users hold conversations with the assistant; every message is kept, and the assistant keeps
-- long-term memories about the tenant (facts it learned, preferences it was told). When a new
-- question comes, the assistant recalls the memories nearest in meaning to it, within that
-- tenant only, and reads the recent messages of the conversation.
--
-- The table: "Agents", keys PK (partition) and SK (sort), both strings.
--   entity       | PK                     | SK                  | tenant | kind       | embedding
--   -------------+------------------------+---------------------+--------+------------+----------
--   Tenant       | TENANT#<tenant>        | PROFILE             |        |            |
--   Conversation | TENANT#<tenant>        | CONV#<convId>       |        |            |
--   Message      | CONV#<tenant>#<convId> | MSG#<time>          | yes    | message    | yes
--   Memory       | TENANT#<tenant>        | MEM#<memoryId>      | yes    | fact|pref  | yes
-- A conversation's messages are one item collection, in time order: its last messages are one
-- Query. A tenant's conversations and memories share the tenant's collection.
--
-- The vector index "byMeaning" holds every item with an `embedding` and a `tenant`: its HASH
-- search attribute is the tenant, so a search names one tenant and reads only that tenant's
-- vectors (one tenant never sees another's memories), and `kind` is an INLINE_FILTER, so a
-- search can keep to memories, or to preferences. It projects the text and the role.
-- Embeddings here are 4 numbers (real ones have hundreds): how much a text is about
-- [food, travel, work, family]. keyhole searches exactly, so these small vectors give the
-- same answers every time; DynamoDB's search is approximate.
--
-- keyhole's VECTOR INDEX clause: the vector attribute with its dimensions and distance function
-- first, then the SearchSchema's attributes (HASH, FILTER for an INLINE_FILTER).
DROP TABLE IF EXISTS "Agents";
CREATE TABLE "Agents" (PK S HASH, SK S RANGE)
  VECTOR INDEX "byMeaning" (embedding VECTOR(4) COSINE, tenant S HASH, kind S FILTER)
    PROJECTION INCLUDE (text, role);
.quiet on

-- Tenants and their conversations.
INSERT INTO "Agents" VALUE {'PK': 'TENANT#acme', 'SK': 'PROFILE', 'name': 'Acme Travel', 'plan': 'team'};
INSERT INTO "Agents" VALUE {'PK': 'TENANT#acme', 'SK': 'CONV#c1', 'title': 'Planning the offsite', 'user': 'ana', 'startedAt': '2026-11-20T09:00:00Z'};
INSERT INTO "Agents" VALUE {'PK': 'TENANT#acme', 'SK': 'CONV#c2', 'title': 'Lunch for the team', 'user': 'ben', 'startedAt': '2026-11-21T11:30:00Z'};
INSERT INTO "Agents" VALUE {'PK': 'TENANT#globex', 'SK': 'PROFILE', 'name': 'Globex', 'plan': 'free'};
INSERT INTO "Agents" VALUE {'PK': 'TENANT#globex', 'SK': 'CONV#c1', 'title': 'Quarterly report', 'user': 'hank', 'startedAt': '2026-11-22T14:00:00Z'};

-- Messages: each in its conversation's collection, sorted by time; each has an embedding, so
-- it can be recalled by meaning too.
INSERT INTO "Agents" VALUE {'PK': 'CONV#acme#c1', 'SK': 'MSG#2026-11-20T09:00:00Z', 'tenant': 'acme', 'kind': 'message', 'role': 'user', 'text': 'Where should we hold the team offsite in spring?', 'embedding': [0.1, 0.9, 0.4, 0.1]};
INSERT INTO "Agents" VALUE {'PK': 'CONV#acme#c1', 'SK': 'MSG#2026-11-20T09:00:05Z', 'tenant': 'acme', 'kind': 'message', 'role': 'assistant', 'text': 'Lisbon or Porto: both are a short flight away for most of the team.', 'embedding': [0.1, 0.95, 0.2, 0.0]};
INSERT INTO "Agents" VALUE {'PK': 'CONV#acme#c1', 'SK': 'MSG#2026-11-20T09:01:10Z', 'tenant': 'acme', 'kind': 'message', 'role': 'user', 'text': 'Porto it is. Book a hotel near the river.', 'embedding': [0.0, 0.9, 0.3, 0.0]};
INSERT INTO "Agents" VALUE {'PK': 'CONV#acme#c2', 'SK': 'MSG#2026-11-21T11:30:00Z', 'tenant': 'acme', 'kind': 'message', 'role': 'user', 'text': 'Order lunch for twelve, two of us are vegetarian.', 'embedding': [0.95, 0.0, 0.3, 0.1]};
INSERT INTO "Agents" VALUE {'PK': 'CONV#acme#c2', 'SK': 'MSG#2026-11-21T11:30:04Z', 'tenant': 'acme', 'kind': 'message', 'role': 'assistant', 'text': 'Ordered from the Thai place: six curries, two of them vegetable.', 'embedding': [0.9, 0.0, 0.2, 0.0]};
INSERT INTO "Agents" VALUE {'PK': 'CONV#globex#c1', 'SK': 'MSG#2026-11-22T14:00:00Z', 'tenant': 'globex', 'kind': 'message', 'role': 'user', 'text': 'Summarize the quarterly numbers for the board.', 'embedding': [0.0, 0.0, 1.0, 0.0]};

-- Long-term memories, in the tenant's collection: facts the assistant learned and
-- preferences it was told.
INSERT INTO "Agents" VALUE {'PK': 'TENANT#acme', 'SK': 'MEM#m1', 'tenant': 'acme', 'kind': 'preference', 'text': 'Prefers window seats and morning flights.', 'embedding': [0.0, 1.0, 0.1, 0.0]};
INSERT INTO "Agents" VALUE {'PK': 'TENANT#acme', 'SK': 'MEM#m2', 'tenant': 'acme', 'kind': 'preference', 'text': 'Two people on the team are vegetarian.', 'embedding': [1.0, 0.0, 0.1, 0.1]};
INSERT INTO "Agents" VALUE {'PK': 'TENANT#acme', 'SK': 'MEM#m3', 'tenant': 'acme', 'kind': 'fact', 'text': 'The team is twelve people, most of them in Madrid.', 'embedding': [0.1, 0.3, 0.8, 0.2]};
INSERT INTO "Agents" VALUE {'PK': 'TENANT#acme', 'SK': 'MEM#m4', 'tenant': 'acme', 'kind': 'fact', 'text': 'The offsite is in Porto, by the river.', 'embedding': [0.1, 0.9, 0.4, 0.0]};
INSERT INTO "Agents" VALUE {'PK': 'TENANT#acme', 'SK': 'MEM#m5', 'tenant': 'acme', 'kind': 'fact', 'text': 'Ana has two children and leaves early on Fridays.', 'embedding': [0.0, 0.1, 0.3, 1.0]};
INSERT INTO "Agents" VALUE {'PK': 'TENANT#globex', 'SK': 'MEM#m1', 'tenant': 'globex', 'kind': 'fact', 'text': 'The board meets on the first Monday of the quarter.', 'embedding': [0.0, 0.1, 1.0, 0.0]};
.quiet off
