-- Social: a small social network. People sign up with a username and an email, write short
-- posts, like each other's posts, and belong to organizations (companies) that are split into
-- teams. One DynamoDB table holds all of it; every screen of the app is one GetItem, one Query
-- or one BatchGetItem.
--
-- The table: "Social", primary key PK (partition) + SK (sort), both generic strings whose
-- meaning depends on the item ("key overloading"). Every item also has a Type attribute
-- ('User', 'Post', 'Like', 'Organization', 'Team', 'Membership', 'TeamMembership') so tools
-- and humans can tell the entities apart.
--   GSI1 (GSI1PK, GSI1SK): an overloaded index serving three lookups the base key cannot:
--     a user by email (EMAIL#<email>), a post by its id together with its likes
--     (POST#<postId>), and the organizations and teams of a user (USER#<username>).
--   GSI2 (GSI2PK, GSI2SK): the global timeline. Every post puts the constant 'ALL_POSTS' in
--     GSI2PK and '<createdAt>#<postId>' in GSI2SK, so "latest posts of everyone" is one Query
--     in time order. One constant partition is fine for a workshop; a busy app would shard it
--     ('ALL_POSTS#2024-03-05', or 'ALL_POSTS#<0..9>') because one partition key takes at most
--     1,000 writes per second.
--
-- Entities and their keys:
--   entity         | PK              | SK                             | GSI1PK / GSI1SK                         | GSI2PK / GSI2SK
--   User           | USER#<username> | PROFILE                        | EMAIL#<email> / USER#<username>         |
--   Post           | USER#<username> | POST#<createdAt>#<postId>      | POST#<postId> / POST#<postId>           | ALL_POSTS / <createdAt>#<postId>
--   Like           | USER#<username> | LIKE#<postId>                  | POST#<postId> / LIKE#<username>         |
--   Organization   | ORG#<orgId>     | METADATA                       |                                         |
--   Team           | ORG#<orgId>     | TEAM#<teamId>                  |                                         |
--   Membership     | ORG#<orgId>     | MEMBER#<username>              | USER#<username> / ORG#<orgId>           |
--   TeamMembership | ORG#<orgId>     | TEAMMEMBER#<teamId>#<username> | USER#<username> / TEAM#<orgId>#<teamId> |
DROP TABLE IF EXISTS "Social";
CREATE TABLE "Social" (PK S HASH, SK S RANGE)
  GLOBAL INDEX "GSI1" (GSI1PK S HASH, GSI1SK S RANGE)
  GLOBAL INDEX "GSI2" (GSI2PK S HASH, GSI2SK S RANGE);
.quiet on

-- Users. A user's partition is USER#<username>: the profile, the user's posts and the user's
-- likes live together (one "item collection"), told apart by the SK prefix. The profile's SK
-- is the fixed word PROFILE, so "get a profile" is a GetItem on (USER#alice, PROFILE).
-- Users also log in by email, which is not part of the primary key: GSI1PK = EMAIL#<email>
-- makes "find the user with this email" a Query on GSI1. (This index does not make emails
-- unique; the Shop sample shows the transaction that does.)
INSERT INTO "Social" VALUE {'PK': 'USER#alice', 'SK': 'PROFILE', 'Type': 'User', 'username': 'alice', 'email': 'alice@example.com', 'displayName': 'Alice Martin', 'bio': 'Staff engineer at Acme Robotics. Draws access patterns before tables.', 'createdAt': '2023-11-02T09:15:00Z', 'GSI1PK': 'EMAIL#alice@example.com', 'GSI1SK': 'USER#alice'};
INSERT INTO "Social" VALUE {'PK': 'USER#bob', 'SK': 'PROFILE', 'Type': 'User', 'username': 'bob', 'email': 'bob.okafor@example.com', 'displayName': 'Bob Okafor', 'bio': 'Product designer in Lagos.', 'createdAt': '2023-11-20T18:03:41Z', 'GSI1PK': 'EMAIL#bob.okafor@example.com', 'GSI1SK': 'USER#bob'};
INSERT INTO "Social" VALUE {'PK': 'USER#carol', 'SK': 'PROFILE', 'Type': 'User', 'username': 'carol', 'email': 'carol.nguyen@example.org', 'displayName': 'Carol Nguyen', 'bio': 'Data engineer. Runs the Globex analytics team.', 'createdAt': '2023-12-01T07:44:12Z', 'GSI1PK': 'EMAIL#carol.nguyen@example.org', 'GSI1SK': 'USER#carol'};
INSERT INTO "Social" VALUE {'PK': 'USER#dave', 'SK': 'PROFILE', 'Type': 'User', 'username': 'dave', 'email': 'dave.schmidt@example.com', 'displayName': 'Dave Schmidt', 'bio': 'Backend developer, Berlin.', 'createdAt': '2024-01-09T12:00:05Z', 'GSI1PK': 'EMAIL#dave.schmidt@example.com', 'GSI1SK': 'USER#dave'};
INSERT INTO "Social" VALUE {'PK': 'USER#erin', 'SK': 'PROFILE', 'Type': 'User', 'username': 'erin', 'email': 'erin.walsh@example.org', 'displayName': 'Erin Walsh', 'bio': 'Mobile and notifications.', 'createdAt': '2024-01-15T16:27:33Z', 'GSI1PK': 'EMAIL#erin.walsh@example.org', 'GSI1SK': 'USER#erin'};
INSERT INTO "Social" VALUE {'PK': 'USER#frank', 'SK': 'PROFILE', 'Type': 'User', 'username': 'frank', 'email': 'frank.ito@example.com', 'displayName': 'Frank Ito', 'bio': 'Mostly here to read.', 'createdAt': '2024-02-02T10:10:10Z', 'GSI1PK': 'EMAIL#frank.ito@example.com', 'GSI1SK': 'USER#frank'};

-- Posts. SK = POST#<createdAt>#<postId>: ISO 8601 UTC timestamps sort as strings in time
-- order, so begins_with(SK, 'POST#') with ORDER BY SK DESC lists a user's posts newest first,
-- and the postId suffix keeps two posts written in the same second apart.
-- Links and notifications only know a post's id, not its author or time, so GSI1 copies the
-- id into GSI1PK = POST#<postId> (GSI1SK = POST#<postId> too: the post sorts after its likes
-- in that partition, see below). GSI2 is the global timeline: ALL_POSTS / <createdAt>#<postId>.
-- likeCount is a denormalised counter, updated in the same transaction as a Like item.
INSERT INTO "Social" VALUE {'PK': 'USER#alice', 'SK': 'POST#2024-03-03T08:12:45Z#h2k9wd', 'Type': 'Post', 'username': 'alice', 'postId': 'h2k9wd', 'createdAt': '2024-03-03T08:12:45Z', 'body': 'Moving our team''s service from a fixed-size cluster to on-demand capacity. Notes to follow.', 'likeCount': 0, 'GSI1PK': 'POST#h2k9wd', 'GSI1SK': 'POST#h2k9wd', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-03T08:12:45Z#h2k9wd'};
INSERT INTO "Social" VALUE {'PK': 'USER#alice', 'SK': 'POST#2024-03-04T17:40:03Z#r8m1zc', 'Type': 'Post', 'username': 'alice', 'postId': 'r8m1zc', 'createdAt': '2024-03-04T17:40:03Z', 'body': 'Single-table design clicked for me when I wrote the access patterns down first.', 'likeCount': 2, 'GSI1PK': 'POST#r8m1zc', 'GSI1SK': 'POST#r8m1zc', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-04T17:40:03Z#r8m1zc'};
INSERT INTO "Social" VALUE {'PK': 'USER#alice', 'SK': 'POST#2024-03-05T09:05:31Z#t3v6qn', 'Type': 'Post', 'username': 'alice', 'postId': 't3v6qn', 'createdAt': '2024-03-05T09:05:31Z', 'body': 'Sort keys are just strings: zero-pad your numbers or 10 sorts before 9.', 'likeCount': 4, 'GSI1PK': 'POST#t3v6qn', 'GSI1SK': 'POST#t3v6qn', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-05T09:05:31Z#t3v6qn'};
INSERT INTO "Social" VALUE {'PK': 'USER#alice', 'SK': 'POST#2024-03-06T12:30:00Z#x5j2pe', 'Type': 'Post', 'username': 'alice', 'postId': 'x5j2pe', 'createdAt': '2024-03-06T12:30:00Z', 'body': 'Slides from today''s workshop are up.', 'likeCount': 0, 'GSI1PK': 'POST#x5j2pe', 'GSI1SK': 'POST#x5j2pe', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-06T12:30:00Z#x5j2pe'};
INSERT INTO "Social" VALUE {'PK': 'USER#bob', 'SK': 'POST#2024-03-03T19:22:10Z#b7n4ku', 'Type': 'Post', 'username': 'bob', 'postId': 'b7n4ku', 'createdAt': '2024-03-03T19:22:10Z', 'body': 'First post! Hello from Lagos.', 'likeCount': 0, 'GSI1PK': 'POST#b7n4ku', 'GSI1SK': 'POST#b7n4ku', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-03T19:22:10Z#b7n4ku'};
INSERT INTO "Social" VALUE {'PK': 'USER#bob', 'SK': 'POST#2024-03-05T14:22:10Z#f9c3ly', 'Type': 'Post', 'username': 'bob', 'postId': 'f9c3ly', 'createdAt': '2024-03-05T14:22:10Z', 'body': 'Anyone else use begins_with on sort keys for date ranges?', 'likeCount': 1, 'GSI1PK': 'POST#f9c3ly', 'GSI1SK': 'POST#f9c3ly', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-05T14:22:10Z#f9c3ly'};
INSERT INTO "Social" VALUE {'PK': 'USER#carol', 'SK': 'POST#2024-03-04T07:55:48Z#d2w8gs', 'Type': 'Post', 'username': 'carol', 'postId': 'd2w8gs', 'createdAt': '2024-03-04T07:55:48Z', 'body': 'Coffee first, then GSIs.', 'likeCount': 0, 'GSI1PK': 'POST#d2w8gs', 'GSI1SK': 'POST#d2w8gs', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-04T07:55:48Z#d2w8gs'};
INSERT INTO "Social" VALUE {'PK': 'USER#carol', 'SK': 'POST#2024-03-05T11:18:27Z#k6p1ro', 'Type': 'Post', 'username': 'carol', 'postId': 'k6p1ro', 'createdAt': '2024-03-05T11:18:27Z', 'body': 'Our sparse index turned the open-orders report from a scan into a handful of reads.', 'likeCount': 3, 'GSI1PK': 'POST#k6p1ro', 'GSI1SK': 'POST#k6p1ro', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-05T11:18:27Z#k6p1ro'};
INSERT INTO "Social" VALUE {'PK': 'USER#carol', 'SK': 'POST#2024-03-05T21:47:02Z#m4s7tb', 'Type': 'Post', 'username': 'carol', 'postId': 'm4s7tb', 'createdAt': '2024-03-05T21:47:02Z', 'body': 'Reading about adjacency lists tonight.', 'likeCount': 0, 'GSI1PK': 'POST#m4s7tb', 'GSI1SK': 'POST#m4s7tb', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-05T21:47:02Z#m4s7tb'};
INSERT INTO "Social" VALUE {'PK': 'USER#dave', 'SK': 'POST#2024-03-04T13:03:16Z#n1q5vf', 'Type': 'Post', 'username': 'dave', 'postId': 'n1q5vf', 'createdAt': '2024-03-04T13:03:16Z', 'body': 'Berlin meetup next Thursday, who''s coming?', 'likeCount': 1, 'GSI1PK': 'POST#n1q5vf', 'GSI1SK': 'POST#n1q5vf', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-04T13:03:16Z#n1q5vf'};
INSERT INTO "Social" VALUE {'PK': 'USER#erin', 'SK': 'POST#2024-03-05T16:36:54Z#s8e2yj', 'Type': 'Post', 'username': 'erin', 'postId': 's8e2yj', 'createdAt': '2024-03-05T16:36:54Z', 'body': 'Shipped the new notifications feed.', 'likeCount': 1, 'GSI1PK': 'POST#s8e2yj', 'GSI1SK': 'POST#s8e2yj', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-05T16:36:54Z#s8e2yj'};
INSERT INTO "Social" VALUE {'PK': 'USER#erin', 'SK': 'POST#2024-03-06T08:14:29Z#w3h9ax', 'Type': 'Post', 'username': 'erin', 'postId': 'w3h9ax', 'createdAt': '2024-03-06T08:14:29Z', 'body': 'Postmortem: one hot partition key, lots of throttling.', 'likeCount': 2, 'GSI1PK': 'POST#w3h9ax', 'GSI1SK': 'POST#w3h9ax', 'GSI2PK': 'ALL_POSTS', 'GSI2SK': '2024-03-06T08:14:29Z#w3h9ax'};

-- Likes, readable in both directions with ONE item per (user, post):
--   * "what did frank like?"  -> the base table: PK = USER#frank, SK begins with LIKE#
--   * "who liked post t3v6qn?" -> GSI1: GSI1PK = POST#t3v6qn, GSI1SK begins with LIKE#
-- The base key (USER#<username>, LIKE#<postId>) also makes a second like of the same post by
-- the same user impossible: an INSERT of an existing key fails. GSI1 puts each like in the
-- same GSI1 partition as the post it likes, so GSI1PK = POST#<postId> alone returns the post
-- and all its likes in one Query (an index used as a pre-joined view).
INSERT INTO "Social" VALUE {'PK': 'USER#bob', 'SK': 'LIKE#t3v6qn', 'Type': 'Like', 'username': 'bob', 'postId': 't3v6qn', 'postAuthor': 'alice', 'likedAt': '2024-03-05T09:31:10Z', 'GSI1PK': 'POST#t3v6qn', 'GSI1SK': 'LIKE#bob'};
INSERT INTO "Social" VALUE {'PK': 'USER#carol', 'SK': 'LIKE#t3v6qn', 'Type': 'Like', 'username': 'carol', 'postId': 't3v6qn', 'postAuthor': 'alice', 'likedAt': '2024-03-05T10:02:44Z', 'GSI1PK': 'POST#t3v6qn', 'GSI1SK': 'LIKE#carol'};
INSERT INTO "Social" VALUE {'PK': 'USER#dave', 'SK': 'LIKE#t3v6qn', 'Type': 'Like', 'username': 'dave', 'postId': 't3v6qn', 'postAuthor': 'alice', 'likedAt': '2024-03-05T12:15:09Z', 'GSI1PK': 'POST#t3v6qn', 'GSI1SK': 'LIKE#dave'};
INSERT INTO "Social" VALUE {'PK': 'USER#frank', 'SK': 'LIKE#t3v6qn', 'Type': 'Like', 'username': 'frank', 'postId': 't3v6qn', 'postAuthor': 'alice', 'likedAt': '2024-03-05T20:40:51Z', 'GSI1PK': 'POST#t3v6qn', 'GSI1SK': 'LIKE#frank'};
INSERT INTO "Social" VALUE {'PK': 'USER#carol', 'SK': 'LIKE#r8m1zc', 'Type': 'Like', 'username': 'carol', 'postId': 'r8m1zc', 'postAuthor': 'alice', 'likedAt': '2024-03-04T18:05:22Z', 'GSI1PK': 'POST#r8m1zc', 'GSI1SK': 'LIKE#carol'};
INSERT INTO "Social" VALUE {'PK': 'USER#erin', 'SK': 'LIKE#r8m1zc', 'Type': 'Like', 'username': 'erin', 'postId': 'r8m1zc', 'postAuthor': 'alice', 'likedAt': '2024-03-04T21:11:37Z', 'GSI1PK': 'POST#r8m1zc', 'GSI1SK': 'LIKE#erin'};
INSERT INTO "Social" VALUE {'PK': 'USER#alice', 'SK': 'LIKE#k6p1ro', 'Type': 'Like', 'username': 'alice', 'postId': 'k6p1ro', 'postAuthor': 'carol', 'likedAt': '2024-03-05T11:40:02Z', 'GSI1PK': 'POST#k6p1ro', 'GSI1SK': 'LIKE#alice'};
INSERT INTO "Social" VALUE {'PK': 'USER#frank', 'SK': 'LIKE#k6p1ro', 'Type': 'Like', 'username': 'frank', 'postId': 'k6p1ro', 'postAuthor': 'carol', 'likedAt': '2024-03-05T13:26:18Z', 'GSI1PK': 'POST#k6p1ro', 'GSI1SK': 'LIKE#frank'};
INSERT INTO "Social" VALUE {'PK': 'USER#erin', 'SK': 'LIKE#k6p1ro', 'Type': 'Like', 'username': 'erin', 'postId': 'k6p1ro', 'postAuthor': 'carol', 'likedAt': '2024-03-05T17:02:45Z', 'GSI1PK': 'POST#k6p1ro', 'GSI1SK': 'LIKE#erin'};
INSERT INTO "Social" VALUE {'PK': 'USER#alice', 'SK': 'LIKE#w3h9ax', 'Type': 'Like', 'username': 'alice', 'postId': 'w3h9ax', 'postAuthor': 'erin', 'likedAt': '2024-03-06T08:50:13Z', 'GSI1PK': 'POST#w3h9ax', 'GSI1SK': 'LIKE#alice'};
INSERT INTO "Social" VALUE {'PK': 'USER#bob', 'SK': 'LIKE#w3h9ax', 'Type': 'Like', 'username': 'bob', 'postId': 'w3h9ax', 'postAuthor': 'erin', 'likedAt': '2024-03-06T09:12:58Z', 'GSI1PK': 'POST#w3h9ax', 'GSI1SK': 'LIKE#bob'};
INSERT INTO "Social" VALUE {'PK': 'USER#frank', 'SK': 'LIKE#f9c3ly', 'Type': 'Like', 'username': 'frank', 'postId': 'f9c3ly', 'postAuthor': 'bob', 'likedAt': '2024-03-05T15:00:31Z', 'GSI1PK': 'POST#f9c3ly', 'GSI1SK': 'LIKE#frank'};
INSERT INTO "Social" VALUE {'PK': 'USER#erin', 'SK': 'LIKE#n1q5vf', 'Type': 'Like', 'username': 'erin', 'postId': 'n1q5vf', 'postAuthor': 'dave', 'likedAt': '2024-03-04T14:44:20Z', 'GSI1PK': 'POST#n1q5vf', 'GSI1SK': 'LIKE#erin'};
INSERT INTO "Social" VALUE {'PK': 'USER#carol', 'SK': 'LIKE#s8e2yj', 'Type': 'Like', 'username': 'carol', 'postId': 's8e2yj', 'postAuthor': 'erin', 'likedAt': '2024-03-05T18:20:06Z', 'GSI1PK': 'POST#s8e2yj', 'GSI1SK': 'LIKE#carol'};

-- Organizations. An organization's partition ORG#<orgId> holds the organization itself
-- (SK = METADATA), its teams, its members and its team members, so "everything about acme"
-- is one Query on PK = 'ORG#acme'.
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'METADATA', 'Type': 'Organization', 'orgId': 'acme', 'orgName': 'Acme Robotics', 'plan': 'enterprise', 'createdAt': '2023-10-01T00:00:00Z'};
INSERT INTO "Social" VALUE {'PK': 'ORG#globex', 'SK': 'METADATA', 'Type': 'Organization', 'orgId': 'globex', 'orgName': 'Globex Analytics', 'plan': 'team', 'createdAt': '2023-12-05T09:30:00Z'};

-- Teams: SK = TEAM#<teamId>, so begins_with(SK, 'TEAM#') lists an organization's teams.
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'TEAM#platform', 'Type': 'Team', 'orgId': 'acme', 'teamId': 'platform', 'teamName': 'Platform', 'description': 'Runs the shared services and the data layer.'};
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'TEAM#design', 'Type': 'Team', 'orgId': 'acme', 'teamId': 'design', 'teamName': 'Design', 'description': 'Product and interaction design.'};
INSERT INTO "Social" VALUE {'PK': 'ORG#globex', 'SK': 'TEAM#data', 'Type': 'Team', 'orgId': 'globex', 'teamId': 'data', 'teamName': 'Data', 'description': 'Pipelines, dashboards and the warehouse.'};

-- Memberships: the many-to-many between users and organizations, one item per pair.
-- From the organization's side: PK = ORG#<orgId>, SK = MEMBER#<username> lists the members.
-- From the user's side: GSI1PK = USER#<username>, GSI1SK = ORG#<orgId> lists the
-- organizations of a user (the same pair with the roles swapped: the "inverted" lookup).
-- role is an attribute, not a key: no access pattern searches by it.
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'MEMBER#alice', 'Type': 'Membership', 'orgId': 'acme', 'username': 'alice', 'role': 'owner', 'joinedAt': '2023-10-01T00:00:00Z', 'GSI1PK': 'USER#alice', 'GSI1SK': 'ORG#acme'};
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'MEMBER#bob', 'Type': 'Membership', 'orgId': 'acme', 'username': 'bob', 'role': 'member', 'joinedAt': '2023-11-21T08:00:00Z', 'GSI1PK': 'USER#bob', 'GSI1SK': 'ORG#acme'};
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'MEMBER#carol', 'Type': 'Membership', 'orgId': 'acme', 'username': 'carol', 'role': 'admin', 'joinedAt': '2023-12-01T08:10:00Z', 'GSI1PK': 'USER#carol', 'GSI1SK': 'ORG#acme'};
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'MEMBER#dave', 'Type': 'Membership', 'orgId': 'acme', 'username': 'dave', 'role': 'member', 'joinedAt': '2024-01-10T09:00:00Z', 'GSI1PK': 'USER#dave', 'GSI1SK': 'ORG#acme'};
INSERT INTO "Social" VALUE {'PK': 'ORG#globex', 'SK': 'MEMBER#carol', 'Type': 'Membership', 'orgId': 'globex', 'username': 'carol', 'role': 'owner', 'joinedAt': '2023-12-05T09:30:00Z', 'GSI1PK': 'USER#carol', 'GSI1SK': 'ORG#globex'};
INSERT INTO "Social" VALUE {'PK': 'ORG#globex', 'SK': 'MEMBER#erin', 'Type': 'Membership', 'orgId': 'globex', 'username': 'erin', 'role': 'member', 'joinedAt': '2024-01-16T10:45:00Z', 'GSI1PK': 'USER#erin', 'GSI1SK': 'ORG#globex'};
INSERT INTO "Social" VALUE {'PK': 'ORG#globex', 'SK': 'MEMBER#frank', 'Type': 'Membership', 'orgId': 'globex', 'username': 'frank', 'role': 'member', 'joinedAt': '2024-02-03T11:20:00Z', 'GSI1PK': 'USER#frank', 'GSI1SK': 'ORG#globex'};

-- Team memberships: SK = TEAMMEMBER#<teamId>#<username>, so begins_with(SK,
-- 'TEAMMEMBER#platform#') lists one team's members. The prefix is TEAMMEMBER#, not TEAM#...:
-- begins_with(SK, 'TEAM#') must return teams only, and 'TEAMMEMBER#' does not begin with
-- 'TEAM#' (the fifth character differs). The trailing '#' after the team id matters too:
-- without it 'TEAMMEMBER#data' would also match a team called 'database'.
-- GSI1 again gives the user's side: GSI1PK = USER#<username>, GSI1SK = TEAM#<orgId>#<teamId>,
-- next to the user's ORG#<orgId> memberships.
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'TEAMMEMBER#platform#alice', 'Type': 'TeamMembership', 'orgId': 'acme', 'teamId': 'platform', 'username': 'alice', 'joinedAt': '2023-10-02T09:00:00Z', 'GSI1PK': 'USER#alice', 'GSI1SK': 'TEAM#acme#platform'};
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'TEAMMEMBER#platform#carol', 'Type': 'TeamMembership', 'orgId': 'acme', 'teamId': 'platform', 'username': 'carol', 'joinedAt': '2023-12-02T09:00:00Z', 'GSI1PK': 'USER#carol', 'GSI1SK': 'TEAM#acme#platform'};
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'TEAMMEMBER#platform#dave', 'Type': 'TeamMembership', 'orgId': 'acme', 'teamId': 'platform', 'username': 'dave', 'joinedAt': '2024-01-10T09:30:00Z', 'GSI1PK': 'USER#dave', 'GSI1SK': 'TEAM#acme#platform'};
INSERT INTO "Social" VALUE {'PK': 'ORG#acme', 'SK': 'TEAMMEMBER#design#bob', 'Type': 'TeamMembership', 'orgId': 'acme', 'teamId': 'design', 'username': 'bob', 'joinedAt': '2023-11-21T08:30:00Z', 'GSI1PK': 'USER#bob', 'GSI1SK': 'TEAM#acme#design'};
INSERT INTO "Social" VALUE {'PK': 'ORG#globex', 'SK': 'TEAMMEMBER#data#carol', 'Type': 'TeamMembership', 'orgId': 'globex', 'teamId': 'data', 'username': 'carol', 'joinedAt': '2023-12-05T09:35:00Z', 'GSI1PK': 'USER#carol', 'GSI1SK': 'TEAM#globex#data'};
INSERT INTO "Social" VALUE {'PK': 'ORG#globex', 'SK': 'TEAMMEMBER#data#erin', 'Type': 'TeamMembership', 'orgId': 'globex', 'teamId': 'data', 'username': 'erin', 'joinedAt': '2024-01-16T11:00:00Z', 'GSI1PK': 'USER#erin', 'GSI1SK': 'TEAM#globex#data'};

.quiet off
