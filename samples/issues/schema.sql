-- Issue tracker: a multi-tenant Jira-like tracker. Each tenant (a customer company) has users
-- and projects; each project has numbered issues (WEB-1, WEB-2, ...) and its own custom fields:
-- a project admin defines fields such as priority, severity or estimate, and every issue may
-- carry a value for each. The board must list a project's issues sorted by ANY custom field,
-- then by issue number, without knowing the fields in advance.
--
-- The table: "IssueTracker", keys `PK` and `SK` (strings). Every item has a `Type` attribute
-- naming its entity ('Tenant', 'User', 'Project', 'AttributeDefinition', 'Issue',
-- 'AttributeValue'), so `.model IssueTracker` groups the items by it.
--   PK  the item collection: a tenant (`TENANT#<tenantId>`) or one project of a tenant
--       (`TENANT#<tenantId>#PROJECT#<projectKey>`). The tenant id leads every partition key:
--       one tenant's data can never be read with another tenant's key.
--   SK  the item inside the collection, `<KIND>#<id...>`, numbers zero-padded.
-- One index, overloaded:
--   "GSI1" (GSI1PK, GSI1SK), projection ALL. Two entities write it, each for its own purpose:
--   - an AttributeValue: GSI1PK `TENANT#<t>#PROJECT#<p>#FIELD#<fieldName>`, GSI1SK the
--     composite sort string `<sort value, 4 digits>#<issue number, 5 digits>`, e.g.
--     `0002#00042`: the value of the field, then the issue number. Strings compare character
--     by character, so zero-padding to a fixed width makes '0002' < '0010' as 2 < 10, and the
--     issue number after the `#` breaks ties. One Query on a field's partition returns the
--     project's issues sorted by that field, then by number; begins_with picks one value,
--     BETWEEN a range. Enumerated fields (severity) sort by the rank of the option in their
--     definition (blocker = 1 ... trivial = 5), not alphabetically.
--   - an Issue: GSI1PK `TENANT#<t>#ASSIGNEE#<username>`, GSI1SK `PROJECT#<p>#ISSUE#<number>`:
--     "my issues" across the tenant's projects. Unassigned issues have no GSI1 attributes, so
--     they are not in the index at all (the index is sparse for them).
--   The two uses never collide: their GSI1PK prefixes differ (`...#FIELD#` vs `...#ASSIGNEE#`).
--
-- Entities and their keys (<t> tenantId, <p> projectKey, <n> issueNumber as 5 digits,
-- <f> fieldName, <v> sortValue as 4 digits):
--   entity               | PK                     | SK              | GSI1PK                           | GSI1SK
--   Tenant               | TENANT#<t>             | METADATA        |                                  |
--   User                 | TENANT#<t>             | USER#<username> |                                  |
--   Project              | TENANT#<t>             | PROJECT#<p>     |                                  |
--   AttributeDefinition  | TENANT#<t>#PROJECT#<p> | ATTRDEF#<f>     |                                  |
--   Issue                | TENANT#<t>#PROJECT#<p> | ISSUE#<n>       | TENANT#<t>#ASSIGNEE#<user>       | PROJECT#<p>#ISSUE#<n>
--   AttributeValue       | TENANT#<t>#PROJECT#<p> | VALUE#<n>#<f>   | TENANT#<t>#PROJECT#<p>#FIELD#<f> | <v>#<n>
-- (Issue's GSI1 keys only when it has an assignee.)

DROP TABLE IF EXISTS "IssueTracker";
CREATE TABLE "IssueTracker" (PK S HASH, SK S RANGE)
  GLOBAL INDEX "GSI1" (GSI1PK S HASH, GSI1SK S RANGE) PROJECTION ALL;

.quiet on

-- ---- Tenants and their users ---------------------------------------------------------------
-- The tenant's partition holds its own record under the fixed sort key METADATA, its users
-- (USER#<username>) and its projects (PROJECT#<key>): one Query loads a tenant's directory.
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme', 'SK': 'METADATA', 'Type': 'Tenant', 'tenantId': 'acme', 'companyName': 'Acme Retail Inc.', 'plan': 'enterprise', 'createdAt': '2023-01-10T08:00:00Z'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex', 'SK': 'METADATA', 'Type': 'Tenant', 'tenantId': 'globex', 'companyName': 'Globex Logistics GmbH', 'plan': 'team', 'createdAt': '2023-05-22T12:30:00Z'};

INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme', 'SK': 'USER#mgarcia', 'Type': 'User', 'tenantId': 'acme', 'username': 'mgarcia', 'fullName': 'Maria Garcia', 'email': 'maria.garcia@acme-retail.com', 'joinedAt': '2023-01-10T08:05:12Z'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme', 'SK': 'USER#pchen', 'Type': 'User', 'tenantId': 'acme', 'username': 'pchen', 'fullName': 'Peter Chen', 'email': 'peter.chen@acme-retail.com', 'joinedAt': '2023-01-11T09:14:40Z'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme', 'SK': 'USER#tokafor', 'Type': 'User', 'tenantId': 'acme', 'username': 'tokafor', 'fullName': 'Tom Okafor', 'email': 'tom.okafor@acme-retail.com', 'joinedAt': '2023-02-03T10:00:00Z'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme', 'SK': 'USER#lschmidt', 'Type': 'User', 'tenantId': 'acme', 'username': 'lschmidt', 'fullName': 'Lena Schmidt', 'email': 'lena.schmidt@acme-retail.com', 'joinedAt': '2023-03-20T13:45:09Z'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex', 'SK': 'USER#hscorpio', 'Type': 'User', 'tenantId': 'globex', 'username': 'hscorpio', 'fullName': 'Hank Scorpio', 'email': 'hank.scorpio@globex-logistics.de', 'joinedAt': '2023-05-22T12:31:00Z'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex', 'SK': 'USER#srossi', 'Type': 'User', 'tenantId': 'globex', 'username': 'srossi', 'fullName': 'Sofia Rossi', 'email': 'sofia.rossi@globex-logistics.de', 'joinedAt': '2023-05-23T08:20:33Z'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex', 'SK': 'USER#kmensah', 'Type': 'User', 'tenantId': 'globex', 'username': 'kmensah', 'fullName': 'Kwame Mensah', 'email': 'kwame.mensah@globex-logistics.de', 'joinedAt': '2023-06-14T07:55:21Z'};

-- ---- Projects ------------------------------------------------------------------------------
-- A project is listed in its tenant's partition (PROJECT#<key>), so "the projects of a
-- tenant" is one Query. Its issues live in a partition of their own (next section), keyed by
-- tenant AND project, which spreads a large tenant over many partitions. nextIssueNumber is
-- the counter that numbers new issues (see the "create an issue" pattern).
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme', 'SK': 'PROJECT#WEB', 'Type': 'Project', 'tenantId': 'acme', 'projectKey': 'WEB', 'projectName': 'Web storefront', 'lead': 'mgarcia', 'nextIssueNumber': 7, 'createdAt': '2023-01-12T10:00:00Z'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme', 'SK': 'PROJECT#API', 'Type': 'Project', 'tenantId': 'acme', 'projectKey': 'API', 'projectName': 'Public REST API', 'lead': 'pchen', 'nextIssueNumber': 5, 'createdAt': '2023-02-06T09:30:00Z'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex', 'SK': 'PROJECT#MOB', 'Type': 'Project', 'tenantId': 'globex', 'projectKey': 'MOB', 'projectName': 'Driver mobile app', 'lead': 'srossi', 'nextIssueNumber': 4, 'createdAt': '2023-06-01T14:10:00Z'};

-- ---- Custom attribute definitions -----------------------------------------------------------
-- Each project defines its own fields: ATTRDEF#<fieldName> in the project's partition, so the
-- issue form can load "the fields of project WEB" with one Query. A definition says how values
-- become the 4-digit sort string of GSI1: a number field pads the number itself (priority 2 ->
-- '0002'; 1 is the highest priority), an enum field pads the option's rank in `options`
-- (severity 'major' -> '0003').
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'ATTRDEF#priority', 'Type': 'AttributeDefinition', 'tenantId': 'acme', 'projectKey': 'WEB', 'fieldName': 'priority', 'label': 'Priority', 'dataType': 'number', 'minValue': 1, 'maxValue': 5, 'required': true};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'ATTRDEF#severity', 'Type': 'AttributeDefinition', 'tenantId': 'acme', 'projectKey': 'WEB', 'fieldName': 'severity', 'label': 'Severity', 'dataType': 'enum', 'options': ['blocker', 'critical', 'major', 'minor', 'trivial'], 'required': true};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'ATTRDEF#estimate', 'Type': 'AttributeDefinition', 'tenantId': 'acme', 'projectKey': 'WEB', 'fieldName': 'estimate', 'label': 'Estimate (story points)', 'dataType': 'number', 'minValue': 0, 'maxValue': 100, 'required': false};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'ATTRDEF#priority', 'Type': 'AttributeDefinition', 'tenantId': 'acme', 'projectKey': 'API', 'fieldName': 'priority', 'label': 'Priority', 'dataType': 'number', 'minValue': 1, 'maxValue': 5, 'required': true};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'ATTRDEF#estimate', 'Type': 'AttributeDefinition', 'tenantId': 'acme', 'projectKey': 'API', 'fieldName': 'estimate', 'label': 'Estimate (story points)', 'dataType': 'number', 'minValue': 0, 'maxValue': 100, 'required': false};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'ATTRDEF#priority', 'Type': 'AttributeDefinition', 'tenantId': 'globex', 'projectKey': 'MOB', 'fieldName': 'priority', 'label': 'Priorität', 'dataType': 'number', 'minValue': 1, 'maxValue': 4, 'required': true};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'ATTRDEF#severity', 'Type': 'AttributeDefinition', 'tenantId': 'globex', 'projectKey': 'MOB', 'fieldName': 'severity', 'label': 'Schweregrad', 'dataType': 'enum', 'options': ['blocker', 'critical', 'major', 'minor', 'trivial'], 'required': true};

-- ---- Issues ---------------------------------------------------------------------------------
-- ISSUE#<number> in the project's partition, the number zero-padded to 5 digits so that the
-- string order is the numeric order (ISSUE#00010 after ISSUE#00009): "the issues of WEB" is
-- begins_with(SK, 'ISSUE#'), oldest first or (ORDER BY SK DESC) newest first. An assigned
-- issue also writes GSI1 as `TENANT#<t>#ASSIGNEE#<username>` / `PROJECT#<p>#ISSUE#<number>`:
-- the tenant keeps assignees of different tenants apart, and the project before the number
-- groups "my issues" by project. WEB-6 and API-3 are unassigned: no GSI1PK, not in GSI1.
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'ISSUE#00001', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 1, 'title': 'Checkout button unresponsive on Safari 17', 'status': 'open', 'reporter': 'mgarcia', 'assignee': 'pchen', 'createdAt': '2024-02-12T09:15:00Z', 'updatedAt': '2024-03-01T16:42:18Z', 'GSI1PK': 'TENANT#acme#ASSIGNEE#pchen', 'GSI1SK': 'PROJECT#WEB#ISSUE#00001'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'ISSUE#00002', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 2, 'title': 'Add a dark mode toggle to the header', 'status': 'in_progress', 'reporter': 'tokafor', 'assignee': 'lschmidt', 'createdAt': '2024-02-13T11:02:37Z', 'updatedAt': '2024-03-04T10:05:51Z', 'GSI1PK': 'TENANT#acme#ASSIGNEE#lschmidt', 'GSI1SK': 'PROJECT#WEB#ISSUE#00002'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'ISSUE#00003', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 3, 'title': 'Product images load slowly on mobile', 'status': 'open', 'reporter': 'lschmidt', 'assignee': 'pchen', 'createdAt': '2024-02-15T14:28:09Z', 'updatedAt': '2024-02-15T14:28:09Z', 'GSI1PK': 'TENANT#acme#ASSIGNEE#pchen', 'GSI1SK': 'PROJECT#WEB#ISSUE#00003'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'ISSUE#00004', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 4, 'title': 'Typo in footer copyright notice', 'status': 'done', 'reporter': 'mgarcia', 'assignee': 'tokafor', 'createdAt': '2024-02-20T08:40:00Z', 'updatedAt': '2024-02-21T09:12:44Z', 'GSI1PK': 'TENANT#acme#ASSIGNEE#tokafor', 'GSI1SK': 'PROJECT#WEB#ISSUE#00004'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'ISSUE#00005', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 5, 'title': 'Cart loses items after login', 'status': 'open', 'reporter': 'pchen', 'assignee': 'mgarcia', 'createdAt': '2024-02-27T17:03:26Z', 'updatedAt': '2024-03-05T08:30:00Z', 'GSI1PK': 'TENANT#acme#ASSIGNEE#mgarcia', 'GSI1SK': 'PROJECT#WEB#ISSUE#00005'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'ISSUE#00006', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 6, 'title': 'Newsletter signup returns HTTP 500', 'status': 'open', 'reporter': 'tokafor', 'createdAt': '2024-03-04T12:19:55Z', 'updatedAt': '2024-03-04T12:19:55Z'};

INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'ISSUE#00001', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 1, 'title': 'Rate-limit headers missing on 429 responses', 'status': 'open', 'reporter': 'pchen', 'assignee': 'tokafor', 'createdAt': '2024-01-30T10:00:00Z', 'updatedAt': '2024-02-02T15:31:07Z', 'GSI1PK': 'TENANT#acme#ASSIGNEE#tokafor', 'GSI1SK': 'PROJECT#API#ISSUE#00001'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'ISSUE#00002', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 2, 'title': 'Paginate GET /v2/orders', 'status': 'in_progress', 'reporter': 'mgarcia', 'assignee': 'pchen', 'createdAt': '2024-02-05T13:44:12Z', 'updatedAt': '2024-03-05T11:20:39Z', 'GSI1PK': 'TENANT#acme#ASSIGNEE#pchen', 'GSI1SK': 'PROJECT#API#ISSUE#00002'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'ISSUE#00003', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 3, 'title': 'Deprecate the v1 auth endpoint', 'status': 'open', 'reporter': 'pchen', 'createdAt': '2024-02-19T16:05:00Z', 'updatedAt': '2024-02-19T16:05:00Z'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'ISSUE#00004', 'Type': 'Issue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 4, 'title': 'OpenAPI spec out of date for /v2/customers', 'status': 'done', 'reporter': 'lschmidt', 'assignee': 'lschmidt', 'createdAt': '2024-02-22T09:37:48Z', 'updatedAt': '2024-02-26T14:00:02Z', 'GSI1PK': 'TENANT#acme#ASSIGNEE#lschmidt', 'GSI1SK': 'PROJECT#API#ISSUE#00004'};

INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'ISSUE#00001', 'Type': 'Issue', 'tenantId': 'globex', 'projectKey': 'MOB', 'issueNumber': 1, 'title': 'GPS position drifts during delivery tracking', 'status': 'open', 'reporter': 'srossi', 'assignee': 'kmensah', 'createdAt': '2024-02-08T07:22:10Z', 'updatedAt': '2024-03-03T18:45:00Z', 'GSI1PK': 'TENANT#globex#ASSIGNEE#kmensah', 'GSI1SK': 'PROJECT#MOB#ISSUE#00001'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'ISSUE#00002', 'Type': 'Issue', 'tenantId': 'globex', 'projectKey': 'MOB', 'issueNumber': 2, 'title': 'Offline mode drops captured signatures', 'status': 'in_progress', 'reporter': 'hscorpio', 'assignee': 'srossi', 'createdAt': '2024-02-14T06:58:31Z', 'updatedAt': '2024-03-05T07:10:15Z', 'GSI1PK': 'TENANT#globex#ASSIGNEE#srossi', 'GSI1SK': 'PROJECT#MOB#ISSUE#00002'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'ISSUE#00003', 'Type': 'Issue', 'tenantId': 'globex', 'projectKey': 'MOB', 'issueNumber': 3, 'title': 'Refresh the onboarding screens', 'status': 'open', 'reporter': 'srossi', 'assignee': 'kmensah', 'createdAt': '2024-02-29T10:10:10Z', 'updatedAt': '2024-02-29T10:10:10Z', 'GSI1PK': 'TENANT#globex#ASSIGNEE#kmensah', 'GSI1SK': 'PROJECT#MOB#ISSUE#00003'};

-- ---- Custom attribute values ------------------------------------------------------------------
-- One item per (issue, field) that has a value: VALUE#<issue number>#<fieldName> in the
-- project's partition, so "the custom fields of WEB-1" is begins_with(SK, 'VALUE#00001#').
-- The prefix is VALUE#, not ISSUE#00001#..., on purpose: begins_with(SK, 'ISSUE#') must list
-- issues only, not their values too. fieldValue is the typed value as entered (a number, or an
-- enum option); sortValue is its 4-digit sort string. GSI1 puts each value in the partition of
-- its field (`...#FIELD#priority`) with GSI1SK `<sortValue>#<issue number>`, so sorting by any
-- field, existing or added later, is the same Query on a different partition: no new index per
-- field. A value that is absent (WEB-6 has no estimate) simply leaves that issue out of the
-- field's partition.
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00001#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 1, 'fieldName': 'priority', 'fieldValue': 1, 'sortValue': '0001', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#priority', 'GSI1SK': '0001#00001'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00001#severity', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 1, 'fieldName': 'severity', 'fieldValue': 'critical', 'sortValue': '0002', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#severity', 'GSI1SK': '0002#00001'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00001#estimate', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 1, 'fieldName': 'estimate', 'fieldValue': 3, 'sortValue': '0003', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#estimate', 'GSI1SK': '0003#00001'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00002#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 2, 'fieldName': 'priority', 'fieldValue': 3, 'sortValue': '0003', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#priority', 'GSI1SK': '0003#00002'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00002#severity', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 2, 'fieldName': 'severity', 'fieldValue': 'minor', 'sortValue': '0004', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#severity', 'GSI1SK': '0004#00002'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00002#estimate', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 2, 'fieldName': 'estimate', 'fieldValue': 8, 'sortValue': '0008', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#estimate', 'GSI1SK': '0008#00002'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00003#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 3, 'fieldName': 'priority', 'fieldValue': 2, 'sortValue': '0002', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#priority', 'GSI1SK': '0002#00003'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00003#severity', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 3, 'fieldName': 'severity', 'fieldValue': 'major', 'sortValue': '0003', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#severity', 'GSI1SK': '0003#00003'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00003#estimate', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 3, 'fieldName': 'estimate', 'fieldValue': 5, 'sortValue': '0005', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#estimate', 'GSI1SK': '0005#00003'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00004#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 4, 'fieldName': 'priority', 'fieldValue': 5, 'sortValue': '0005', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#priority', 'GSI1SK': '0005#00004'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00004#severity', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 4, 'fieldName': 'severity', 'fieldValue': 'trivial', 'sortValue': '0005', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#severity', 'GSI1SK': '0005#00004'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00004#estimate', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 4, 'fieldName': 'estimate', 'fieldValue': 1, 'sortValue': '0001', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#estimate', 'GSI1SK': '0001#00004'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00005#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 5, 'fieldName': 'priority', 'fieldValue': 1, 'sortValue': '0001', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#priority', 'GSI1SK': '0001#00005'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00005#severity', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 5, 'fieldName': 'severity', 'fieldValue': 'blocker', 'sortValue': '0001', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#severity', 'GSI1SK': '0001#00005'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00005#estimate', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 5, 'fieldName': 'estimate', 'fieldValue': 8, 'sortValue': '0008', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#estimate', 'GSI1SK': '0008#00005'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00006#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 6, 'fieldName': 'priority', 'fieldValue': 2, 'sortValue': '0002', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#priority', 'GSI1SK': '0002#00006'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#WEB', 'SK': 'VALUE#00006#severity', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'WEB', 'issueNumber': 6, 'fieldName': 'severity', 'fieldValue': 'major', 'sortValue': '0003', 'GSI1PK': 'TENANT#acme#PROJECT#WEB#FIELD#severity', 'GSI1SK': '0003#00006'};

INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'VALUE#00001#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 1, 'fieldName': 'priority', 'fieldValue': 2, 'sortValue': '0002', 'GSI1PK': 'TENANT#acme#PROJECT#API#FIELD#priority', 'GSI1SK': '0002#00001'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'VALUE#00001#estimate', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 1, 'fieldName': 'estimate', 'fieldValue': 2, 'sortValue': '0002', 'GSI1PK': 'TENANT#acme#PROJECT#API#FIELD#estimate', 'GSI1SK': '0002#00001'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'VALUE#00002#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 2, 'fieldName': 'priority', 'fieldValue': 1, 'sortValue': '0001', 'GSI1PK': 'TENANT#acme#PROJECT#API#FIELD#priority', 'GSI1SK': '0001#00002'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'VALUE#00002#estimate', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 2, 'fieldName': 'estimate', 'fieldValue': 13, 'sortValue': '0013', 'GSI1PK': 'TENANT#acme#PROJECT#API#FIELD#estimate', 'GSI1SK': '0013#00002'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'VALUE#00003#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 3, 'fieldName': 'priority', 'fieldValue': 4, 'sortValue': '0004', 'GSI1PK': 'TENANT#acme#PROJECT#API#FIELD#priority', 'GSI1SK': '0004#00003'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'VALUE#00003#estimate', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 3, 'fieldName': 'estimate', 'fieldValue': 5, 'sortValue': '0005', 'GSI1PK': 'TENANT#acme#PROJECT#API#FIELD#estimate', 'GSI1SK': '0005#00003'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#acme#PROJECT#API', 'SK': 'VALUE#00004#priority', 'Type': 'AttributeValue', 'tenantId': 'acme', 'projectKey': 'API', 'issueNumber': 4, 'fieldName': 'priority', 'fieldValue': 3, 'sortValue': '0003', 'GSI1PK': 'TENANT#acme#PROJECT#API#FIELD#priority', 'GSI1SK': '0003#00004'};

INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'VALUE#00001#priority', 'Type': 'AttributeValue', 'tenantId': 'globex', 'projectKey': 'MOB', 'issueNumber': 1, 'fieldName': 'priority', 'fieldValue': 1, 'sortValue': '0001', 'GSI1PK': 'TENANT#globex#PROJECT#MOB#FIELD#priority', 'GSI1SK': '0001#00001'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'VALUE#00001#severity', 'Type': 'AttributeValue', 'tenantId': 'globex', 'projectKey': 'MOB', 'issueNumber': 1, 'fieldName': 'severity', 'fieldValue': 'critical', 'sortValue': '0002', 'GSI1PK': 'TENANT#globex#PROJECT#MOB#FIELD#severity', 'GSI1SK': '0002#00001'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'VALUE#00002#priority', 'Type': 'AttributeValue', 'tenantId': 'globex', 'projectKey': 'MOB', 'issueNumber': 2, 'fieldName': 'priority', 'fieldValue': 1, 'sortValue': '0001', 'GSI1PK': 'TENANT#globex#PROJECT#MOB#FIELD#priority', 'GSI1SK': '0001#00002'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'VALUE#00002#severity', 'Type': 'AttributeValue', 'tenantId': 'globex', 'projectKey': 'MOB', 'issueNumber': 2, 'fieldName': 'severity', 'fieldValue': 'blocker', 'sortValue': '0001', 'GSI1PK': 'TENANT#globex#PROJECT#MOB#FIELD#severity', 'GSI1SK': '0001#00002'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'VALUE#00003#priority', 'Type': 'AttributeValue', 'tenantId': 'globex', 'projectKey': 'MOB', 'issueNumber': 3, 'fieldName': 'priority', 'fieldValue': 4, 'sortValue': '0004', 'GSI1PK': 'TENANT#globex#PROJECT#MOB#FIELD#priority', 'GSI1SK': '0004#00003'};
INSERT INTO "IssueTracker" VALUE {'PK': 'TENANT#globex#PROJECT#MOB', 'SK': 'VALUE#00003#severity', 'Type': 'AttributeValue', 'tenantId': 'globex', 'projectKey': 'MOB', 'issueNumber': 3, 'fieldName': 'severity', 'fieldValue': 'trivial', 'sortValue': '0005', 'GSI1PK': 'TENANT#globex#PROJECT#MOB#FIELD#severity', 'GSI1SK': '0005#00003'};

.quiet off
