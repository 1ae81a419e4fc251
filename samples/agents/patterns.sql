-- Agents: access patterns. Load schema.sql first, then:
--   keyhole agents.kh --patterns samples/agents/patterns.sql

-- pattern: list a tenant's conversations
-- rate: 20/s
SELECT title, startedAt FROM "Agents" WHERE PK = 'TENANT#acme' AND begins_with(SK, 'CONV#');

-- pattern: read a conversation's latest messages
-- rate: 200/s
-- The conversation's collection, newest first: the context the assistant answers in.
SELECT role, text FROM "Agents" WHERE PK = 'CONV#acme#c1' AND begins_with(SK, 'MSG#') ORDER BY SK DESC;

-- pattern: recall the memories nearest a question
-- rate: 200/s
-- "What should I know before booking flights?", embedded as [0.05, 0.95, 0.2, 0.0]. The
-- tenant is the vector index's HASH attribute: the search reads only acme's vectors. kind
-- narrows it to memories (not messages).
SELECT SK, text FROM "Agents"."byMeaning" WHERE tenant = 'acme' AND kind = 'preference'
  ORDER BY VECTOR_DISTANCE(embedding, [0.05, 0.95, 0.2, 0.0]) LIMIT 2;

-- pattern: recall everything a tenant said about food
-- rate: 50/s
-- Messages and memories alike: no kind condition.
SELECT SK, text FROM "Agents"."byMeaning" WHERE tenant = 'acme'
  ORDER BY VECTOR_DISTANCE(embedding, [1.0, 0.0, 0.2, 0.0]) LIMIT 3;

-- pattern: remember a message
-- rate: 100/s
-- Each message of a conversation goes into its collection with its embedding: a table write,
-- and a vector write into byMeaning (billed per GB of VectorWriteRequestBytes).
INSERT INTO "Agents" VALUE {'PK': 'CONV#acme#c1', 'SK': 'MSG#2026-11-20T09:15:00Z', 'tenant': 'acme', 'kind': 'message', 'role': 'user', 'text': 'And a hotel for two nights.', 'embedding': [0.1, 0.9, 0.3, 0.0]};

-- refused: find a message by its words
-- text is no key of the table or any index: this reads every item (a Scan). Recall by
-- meaning (the vector index) instead, or keep a keyword index of your own.
SELECT * FROM "Agents" WHERE text = 'Porto it is. Book a hotel near the river.';
