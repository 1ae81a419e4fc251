-- Helpdesk: access patterns. Load schema.sql first, then:
--   keyhole helpdesk.kh --patterns samples/helpdesk/patterns.sql

-- pattern: get an organization
-- rate: 20/s
SELECT * FROM "Helpdesk" WHERE PK = 'ORG#acme' AND SK = 'ORG#acme';

-- pattern: list the users of an organization
-- rate: 5/s
-- Users sit in the org's collection under the USER# prefix.
SELECT username, fullName, email, role FROM "Helpdesk" WHERE PK = 'ORG#acme' AND begins_with(SK, 'USER#');

-- pattern: get a user
-- rate: 100/s
-- A username is unique within its org, so the org is part of the key.
SELECT * FROM "Helpdesk" WHERE PK = 'ORG#globex' AND SK = 'USER#irene';

-- pattern: get an organization's tickets newest first
-- rate: 40/s
-- Ticket ids are ULIDs (time first), so sort-key order is creation order; DESC reads the
-- collection backwards (ScanIndexForward = false).
SELECT ticketId, requester, subject, status, createdAt FROM "Helpdesk" WHERE PK = 'ORG#acme' AND begins_with(SK, 'TICKET#') ORDER BY SK DESC;

-- pattern: get an organization's unsolved tickets newest first
-- rate: 60/s
-- status is not a key: a filter on the same Query (9 read, 4 returned). An org's queue is
-- small; a large one would deserve its own index (see the refusals below).
SELECT ticketId, subject, status, priority FROM "Helpdesk" WHERE PK = 'ORG#acme' AND begins_with(SK, 'TICKET#') AND status IN ['new', 'open'] ORDER BY SK DESC;

-- pattern: get an organization's tickets of one month
-- rate: 2/s
-- A ULID's first 10 characters are its time, so a time range is a range of sort keys:
-- '01HNGZE600' is 2024-02-01T00:00:00.000Z and '01HQVMZ100' is 2024-03-01T00:00:00.000Z; a
-- full id is longer, so it sorts after its own 10-character time prefix. No createdAt index.
SELECT ticketId, subject, createdAt FROM "Helpdesk" WHERE PK = 'ORG#acme' AND SK BETWEEN 'TICKET#01HNGZE600' AND 'TICKET#01HQVMZ100';

-- pattern: get a user's tickets newest first
-- rate: 50/s
-- GSI1 partition ORG#<orgId>#USER#<username> holds the user's tickets (and the user item,
-- which the begins_with leaves out), sorted by ticket id, so by time.
SELECT * FROM "Helpdesk"."GSI1" WHERE GSI1PK = 'ORG#acme#USER#alice' AND begins_with(GSI1SK, 'TICKET#') ORDER BY GSI1SK DESC;

-- pattern: get a user and their tickets
-- rate: 30/s
-- The whole GSI1 partition, backwards: 'USER#' > 'TICKET#', so the user's item comes first,
-- then the tickets newest first -- a "My requests" page in one Query.
SELECT * FROM "Helpdesk"."GSI1" WHERE GSI1PK = 'ORG#acme#USER#bob' ORDER BY GSI1SK DESC;

-- pattern: get a ticket
-- rate: 200/s
-- Its full key: the org and the ticket id.
SELECT * FROM "Helpdesk" WHERE PK = 'ORG#acme' AND SK = 'TICKET#01HS95YJ408Q7GB6MHW72JFRKS';

-- pattern: get a ticket's conversation
-- rate: 150/s
-- The ticket's own collection: its comments, oldest first (comment ids are ULIDs too).
SELECT author, isPublic, body, createdAt FROM "Helpdesk" WHERE PK = 'TICKET#01HS95YJ408Q7GB6MHW72JFRKS';

-- pattern: get the public comments of a ticket
-- rate: 80/s
-- What the requester sees: internal notes (isPublic = false) filtered out, 4 read, 3 returned.
SELECT author, body, createdAt FROM "Helpdesk" WHERE PK = 'TICKET#01HS95YJ408Q7GB6MHW72JFRKS' AND isPublic = true;

-- pattern: open a ticket
-- rate: 10/s
-- One all-or-nothing transaction: the requester must exist (a condition check), the ticket is
-- inserted (refused if its id were taken), and the org's ticketCount goes up by one. The id
-- is a new ULID for 2024-04-04T09:12:31Z, so the ticket lands at the head of both lists.
-- Run it once: a second run fails, as the ticket exists.
BEGIN;
EXISTS(SELECT * FROM "Helpdesk" WHERE PK = 'ORG#initech' AND SK = 'USER#peter' AND _type = 'User');
INSERT INTO "Helpdesk" VALUE {'PK': 'ORG#initech', 'SK': 'TICKET#01HTM6350RZ7SR1WEY0B73B4G4', 'GSI1PK': 'ORG#initech#USER#peter', 'GSI1SK': 'TICKET#01HTM6350RZ7SR1WEY0B73B4G4', '_type': 'Ticket', 'ticketId': '01HTM6350RZ7SR1WEY0B73B4G4', 'orgId': 'initech', 'requester': 'peter', 'subject': 'Printer on floor 4 jams on every job', 'status': 'new', 'priority': 'normal', 'channel': 'web', 'createdAt': '2024-04-04T09:12:31Z', 'updatedAt': '2024-04-04T09:12:31Z'};
UPDATE "Helpdesk" SET ticketCount = ticketCount + 1 WHERE PK = 'ORG#initech' AND SK = 'ORG#initech';
COMMIT;

-- refused: find all open tickets
-- Why refused: status is not a key of the table or of GSI1, so every item would be read (a
-- Scan). Fix: an index keyed by status, with the ticket's sort key to keep it by time; only
-- tickets have a status, so the index holds only tickets (a sparse index):
--   ALTER TABLE "Helpdesk" ADD GLOBAL INDEX "byStatus" (status S HASH, SK S RANGE);
--   SELECT * FROM "Helpdesk"."byStatus" WHERE status = 'open' ORDER BY SK DESC;
SELECT * FROM "Helpdesk" WHERE status = 'open';

-- refused: find an agent's assigned tickets
-- Why refused: assignee is a plain attribute, so this is a Scan too. Fix: an index on it,
-- sorted by last update for an agent's work queue:
--   ALTER TABLE "Helpdesk" ADD GLOBAL INDEX "byAssignee" (assignee S HASH, updatedAt S RANGE);
-- (tickets nobody has picked up have no assignee, so they stay out of that index).
SELECT * FROM "Helpdesk" WHERE assignee = 'sam.rivera';

-- refused: find everyone's tickets since march on gsi1
-- Why refused: a sort-key condition alone does not name a partition of GSI1; each user's
-- tickets are a separate partition, so this would Scan the index. Fix: pin GSI1PK (one
-- user's tickets), or for one org read the table: PK = 'ORG#acme' AND SK >= 'TICKET#01HQVMZ100'.
SELECT * FROM "Helpdesk"."GSI1" WHERE GSI1SK >= 'TICKET#01HQVMZ100';
