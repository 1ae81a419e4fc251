-- Shop: access patterns. Load schema.sql first, then:
--   keyhole shop.kh --patterns samples/shop/patterns.sql

-- pattern: get a customer's profile
-- rate: 200/s
-- The full primary key is known (CUSTOMER#<customerId>, PROFILE): a GetItem.
SELECT * FROM "Shop" WHERE PK = 'CUSTOMER#C1002' AND SK = 'PROFILE';

-- pattern: find a customer by email
-- rate: 20/s
-- The email guard's key IS the email, so login is a GetItem too; the guard holds the
-- customerId, and a second GetItem fetches the profile. No index needed.
SELECT * FROM "Shop" WHERE PK = 'EMAIL#aisha.bello@example.org' AND SK = 'EMAIL';

-- pattern: a customer with their orders
-- rate: 50/s
-- The whole item collection CUSTOMER#<customerId>: the profile and every order, one Query
-- (the account page). The orders sort before PROFILE since 'O' < 'P'.
SELECT * FROM "Shop" WHERE PK = 'CUSTOMER#C1003';

-- pattern: orders of a customer, newest first
-- rate: 80/s
-- begins_with(SK, 'ORDER#') leaves the profile out; the date in the SK orders them.
SELECT * FROM "Shop" WHERE PK = 'CUSTOMER#C1001' AND begins_with(SK, 'ORDER#') ORDER BY SK DESC;

-- pattern: orders of a customer in a period
-- rate: 10/s
-- February 2024: 'ORDER#2024-03-01' sorts before every March 1 order ('ORDER#2024-03-01#O...'
-- is longer), so this BETWEEN is the half-open period [Feb 1, Mar 1).
SELECT * FROM "Shop" WHERE PK = 'CUSTOMER#C1001' AND SK BETWEEN 'ORDER#2024-02-01' AND 'ORDER#2024-03-01';

-- pattern: an order with its items
-- rate: 150/s
-- A tracking link knows only the order id. GSI1PK = ORDER#<orderId> holds the order and its
-- line items: one Query returns both (drop the item rows with GSI1SK = 'ORDER#O1011' to get
-- the order alone).
SELECT * FROM "Shop"."GSI1" WHERE GSI1PK = 'ORDER#O1011';

-- pattern: all open orders
-- rate: 2/s
-- The sparse OpenOrders index holds open orders only, one partition per open state; IN reads
-- the three partitions (three Queries) and nothing else: 5 items read, not the table's 46.
SELECT * FROM "Shop"."OpenOrders" WHERE OpenState IN ['PLACED', 'PAID', 'SHIPPED'];

-- pattern: paid orders waiting to ship, oldest first
-- rate: 1/s
-- One partition of the sparse index, in OpenSince order: the warehouse's pick list.
SELECT * FROM "Shop"."OpenOrders" WHERE OpenState = 'PAID' ORDER BY OpenSince ASC;

-- pattern: deliver a shipped order
-- rate: 20/s
-- Closing an order REMOVEs OpenState and OpenSince, so it leaves the sparse index (run
-- "all open orders" again: 4). The orderStatus = 'SHIPPED' condition makes the write safe to
-- retry: run a second time it fails with ConditionalCheckFailedException, changing nothing.
UPDATE "Shop" SET orderStatus = 'DELIVERED', deliveredAt = '2024-03-07T10:15:00Z'
  REMOVE OpenState REMOVE OpenSince
  WHERE PK = 'CUSTOMER#C1005' AND SK = 'ORDER#2024-02-21#O1007' AND orderStatus = 'SHIPPED';

-- pattern: create a customer with a unique email
-- rate: 5/s
-- One transaction (TransactWriteItems), two INSERTs. Each INSERT is a PutItem with
-- attribute_not_exists(PK): the customer must be new AND the email guard must be new, and
-- either both are written or neither is. It succeeds once after a fresh load. Run it again
-- and it fails with TransactionCanceledException (both conditions fail: the customer and the
-- email exist). A different customer id with this email fails the same way, on the guard
-- alone ([None, ConditionalCheckFailed]): that is the uniqueness guarantee. Changing a
-- customer's email is the same idea: one transaction that deletes the old guard, inserts the
-- new one and updates the profile.
BEGIN;
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1007', 'SK': 'PROFILE', 'EntityType': 'Customer',
  'customerId': 'C1007', 'email': 'sofia.rossi@example.it', 'fullName': 'Sofia Rossi',
  'phone': '+39 02 8901 2345', 'address': {'street': 'Via Torino 61', 'city': 'Milan',
  'postcode': '20123', 'country': 'IT'}, 'createdAt': '2024-03-07T09:41:17Z'};
INSERT INTO "Shop" VALUE {'PK': 'EMAIL#sofia.rossi@example.it', 'SK': 'EMAIL',
  'EntityType': 'EmailGuard', 'email': 'sofia.rossi@example.it', 'customerId': 'C1007'};
COMMIT;

-- refused: orders by status
-- Why refused: orderStatus is not a key of the table or of any index, so DynamoDB would read
-- every item (a Scan) to find the few that match. Fix: open states are served by the sparse
-- OpenOrders index (OpenState = 'PAID', see "paid orders waiting to ship"); closed orders are
-- read per customer, where orderStatus is a cheap filter inside one partition.
SELECT * FROM "Shop" WHERE orderStatus = 'PAID';

-- refused: find a customer by email on the profile
-- Why refused: email is an attribute of the profile, not a key; no index has it as its
-- partition key. Fix: the email guard's key is the email: SELECT * FROM "Shop"
-- WHERE PK = 'EMAIL#james.chen@example.net' AND SK = 'EMAIL' ("find a customer by email").
SELECT * FROM "Shop" WHERE email = 'james.chen@example.net';

-- refused: open orders placed since a date
-- Why refused: OpenSince is only the sort key of OpenOrders; a Query needs its partition key
-- OpenState. Fix: name the partitions: WHERE OpenState IN ['PLACED', 'PAID', 'SHIPPED']
-- AND OpenSince >= '2024-03-01' (one Query per state, each with a sort-key range).
SELECT * FROM "Shop"."OpenOrders" WHERE OpenSince >= '2024-03-01';
