-- Issue tracker: access patterns. Load schema.sql first, then:
--   keyhole issues.kh --patterns samples/issues/patterns.sql

-- pattern: list the projects of a tenant
-- rate: 20/s
-- The tenant's partition holds its projects under PROJECT#<key>.
SELECT * FROM "IssueTracker" WHERE PK = 'TENANT#acme' AND begins_with(SK, 'PROJECT#');

-- pattern: get the custom field definitions of a project
-- rate: 50/s
-- What the issue form of WEB needs: the ATTRDEF# items of the project's partition.
SELECT fieldName, label, dataType, options, minValue, maxValue FROM "IssueTracker" WHERE PK = 'TENANT#acme#PROJECT#WEB' AND begins_with(SK, 'ATTRDEF#');

-- pattern: list the issues of a project, newest first
-- rate: 100/s
-- ISSUE#<5-digit number> sorts numerically as a string; ORDER BY the sort key DESC reads the
-- partition backwards (ScanIndexForward false). begins_with keeps the ATTRDEF# and VALUE#
-- items of the same partition out.
SELECT SK, title, status, assignee FROM "IssueTracker" WHERE PK = 'TENANT#acme#PROJECT#WEB' AND begins_with(SK, 'ISSUE#') ORDER BY SK DESC;

-- pattern: get an issue
-- rate: 300/s
-- GetItem: tenant, project and number make the full key (issue API-2).
SELECT * FROM "IssueTracker" WHERE PK = 'TENANT#acme#PROJECT#API' AND SK = 'ISSUE#00002';

-- pattern: get the custom field values of an issue
-- rate: 300/s
-- All VALUE#00001#<field> items of WEB-1: one Query, one item per field that has a value.
SELECT fieldName, fieldValue FROM "IssueTracker" WHERE PK = 'TENANT#acme#PROJECT#WEB' AND begins_with(SK, 'VALUE#00001#');

-- pattern: sort a project's issues by priority
-- rate: 40/s
-- GSI1's partition for (WEB, priority): GSI1SK `<priority 0000>#<issue 00000>` returns the
-- issues highest priority first (1 is highest), ties broken by issue number.
SELECT issueNumber, fieldValue, GSI1SK FROM "IssueTracker"."GSI1" WHERE GSI1PK = 'TENANT#acme#PROJECT#WEB#FIELD#priority';

-- pattern: list a project's priority 1 issues by number
-- rate: 20/s
-- The first segment of the composite sort string is the value: begins_with '0001#' selects
-- one value, and the rest of the string keeps the issues in number order.
SELECT issueNumber, GSI1SK FROM "IssueTracker"."GSI1" WHERE GSI1PK = 'TENANT#acme#PROJECT#WEB#FIELD#priority' AND begins_with(GSI1SK, '0001#');

-- pattern: sort a project's issues by severity, least severe first
-- rate: 10/s
-- Same Query on another field's partition: no index per custom field. Severity sorts by the
-- option's rank (blocker = 0001 ... trivial = 0005); DESC reverses it.
SELECT issueNumber, fieldValue, GSI1SK FROM "IssueTracker"."GSI1" WHERE GSI1PK = 'TENANT#globex#PROJECT#MOB#FIELD#severity' ORDER BY GSI1SK DESC;

-- pattern: find a project's issues estimated between 3 and 8 points
-- rate: 5/s
-- A range of values: BETWEEN on the composite string. '0008#99999' is the highest sort string
-- with value 8, so the range includes every issue estimated at 8.
SELECT issueNumber, fieldValue FROM "IssueTracker"."GSI1" WHERE GSI1PK = 'TENANT#acme#PROJECT#WEB#FIELD#estimate' AND GSI1SK BETWEEN '0003#00000' AND '0008#99999';

-- pattern: list the issues assigned to a user
-- rate: 80/s
-- The other use of the overloaded GSI1: Issue items keyed by assignee, across the tenant's
-- projects, grouped by project then number: pchen has API-2, WEB-1 and WEB-3.
SELECT projectKey, issueNumber, title, status FROM "IssueTracker"."GSI1" WHERE GSI1PK = 'TENANT#acme#ASSIGNEE#pchen';

-- pattern: list the issues assigned to a user in one project
-- rate: 40/s
SELECT projectKey, issueNumber, title FROM "IssueTracker"."GSI1" WHERE GSI1PK = 'TENANT#acme#ASSIGNEE#pchen' AND begins_with(GSI1SK, 'PROJECT#WEB#');

-- pattern: create an issue with a custom field value
-- rate: 5/s
-- A write, all or nothing: take number 7 from the project's counter (the condition
-- nextIssueNumber = 7 fails if someone else took it first, so two writers never get the same
-- number), put the issue, and put its priority value with both GSI1 keys. It succeeds exactly
-- once after a fresh load.
BEGIN;
UPDATE "IssueTracker" SET nextIssueNumber = 8 WHERE PK = 'TENANT#acme' AND SK = 'PROJECT#WEB' AND nextIssueNumber = 7;
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'ISSUE#00007', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 7, 'title': 'Search suggestions flicker while typing', 'status': 'open', 'reporter': 'lschmidt', 'assignee': 'tokafor', 'createdAt': '2024-03-05T15:30:00Z', 'updatedAt': '2024-03-05T15:30:00Z', 'GSI1PK': 'TENANT#acme#ASSIGNEE#tokafor', 'GSI1SK': 'PROJECT#WEB#ISSUE#00007'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00007#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 7, 'fieldName': 'priority', 'fieldValue': 3, 'sortValue': '0003', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#priority', 'GSI1SK': '0003#00007'};
COMMIT;

-- refused: find all open issues
-- Why refused: status is not a key of the table or of GSI1, so DynamoDB would have to read
-- every item (a Scan), across all tenants. Fix: filter inside one project, which reads only
-- its partition: PK = 'TENANT#acme#PROJECT#WEB' AND begins_with(SK, 'ISSUE#') AND
-- status = 'open'; or, if the board needs it often, make status another GSI1 use (e.g. GSI1PK
-- `TENANT#<t>#PROJECT#<p>#STATUS#open` on the Issue items instead of the assignee).
SELECT * FROM "IssueTracker" WHERE status = 'open';

-- refused: list every priority 1 issue of every project
-- Why refused: a condition on GSI1's sort key alone pins no GSI1 partition; each field of
-- each project is its own partition, so this would be a Scan of the index. Fix: pin the
-- partition, one project at a time (GSI1PK = 'TENANT#acme#PROJECT#WEB#FIELD#priority' AND
-- begins_with(GSI1SK, '0001#')), or GSI1PK IN [...] for the tenant's few projects.
SELECT * FROM "IssueTracker"."GSI1" WHERE begins_with(GSI1SK, '0001#');

-- refused: get issue number 1 without its project
-- Why refused: every project has an ISSUE#00001; the sort key alone does not say which
-- partition to read. Fix: issue keys always travel with their project (WEB-1 ->
-- PK = 'TENANT#acme#PROJECT#WEB' AND SK = 'ISSUE#00001').
SELECT * FROM "IssueTracker" WHERE SK = 'ISSUE#00001';
