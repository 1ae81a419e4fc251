-- Shop: an online coffee-gear shop. Customers sign up with an email address (which must be
-- unique), place orders, and each order has line items. The warehouse works from a list of
-- the orders that are still open (placed, paid or shipped but not yet delivered or cancelled).
-- One DynamoDB table holds all of it.
--
-- The table: "Shop", primary key PK (partition) + SK (sort), generic strings overloaded per
-- entity. Every item has an EntityType attribute ('Customer', 'EmailGuard', 'Order',
-- 'OrderItem').
--   GSI1 (GSI1PK, GSI1SK): orders by order id. An order and its line items share
--     GSI1PK = ORDER#<orderId>, so "an order with its items" is one Query even though the
--     order lives in its customer's partition and the items in the order's own partition.
--   OpenOrders (OpenState, OpenSince): a SPARSE index. Only orders that are still open carry
--     OpenState (a copy of orderStatus: PLACED, PAID or SHIPPED) and OpenSince (when the order
--     was placed). DynamoDB indexes an item only when it has the index's key attributes, so this
--     index holds the 5 open orders and nothing else: no customers, no line items, no delivered
--     or cancelled orders. Closing an order REMOVEs the two attributes and it leaves the index.
--     Reading it costs only what is open, however many old orders the table keeps.
--
-- Entities and their keys:
--   entity     | PK                    | SK                          | GSI1PK / GSI1SK                   | OpenState / OpenSince
--   Customer   | CUSTOMER#<customerId> | PROFILE                     |                                   |
--   EmailGuard | EMAIL#<email>         | EMAIL                       |                                   |
--   Order      | CUSTOMER#<customerId> | ORDER#<orderDate>#<orderId> | ORDER#<orderId> / ORDER#<orderId> | <orderStatus> / <placedAt>, open orders only
--   OrderItem  | ORDER#<orderId>       | ITEM#<lineNo>               | ORDER#<orderId> / ITEM#<lineNo>   |
DROP TABLE IF EXISTS "Shop";
CREATE TABLE "Shop" (PK S HASH, SK S RANGE)
  GLOBAL INDEX "GSI1" (GSI1PK S HASH, GSI1SK S RANGE)
  GLOBAL INDEX "OpenOrders" (OpenState S HASH, OpenSince S RANGE);
.quiet on

-- Customers. The partition CUSTOMER#<customerId> holds the profile (SK = PROFILE, a fixed word
-- so the profile is a GetItem) and the customer's orders (SK = ORDER#...), so "a customer and
-- their orders" is one Query. Customer ids are fixed-width (C1001...), so they also sort
-- correctly as strings.
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1001', 'SK': 'PROFILE', 'EntityType': 'Customer', 'customerId': 'C1001', 'email': 'maria.garcia@example.com', 'fullName': 'Maria Garcia', 'phone': '+34 612 345 678', 'address': {'street': 'Calle de Alcala 42', 'city': 'Madrid', 'postcode': '28014', 'country': 'ES'}, 'createdAt': '2023-09-14T10:02:11Z'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1002', 'SK': 'PROFILE', 'EntityType': 'Customer', 'customerId': 'C1002', 'email': 'james.chen@example.net', 'fullName': 'James Chen', 'phone': '+44 20 7946 0321', 'address': {'street': '18 Leather Lane', 'city': 'London', 'postcode': 'EC1N 7SU', 'country': 'GB'}, 'createdAt': '2023-10-03T19:45:27Z'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1003', 'SK': 'PROFILE', 'EntityType': 'Customer', 'customerId': 'C1003', 'email': 'priya.patel@example.com', 'fullName': 'Priya Patel', 'phone': '+49 30 901820', 'address': {'street': 'Torstrasse 101', 'city': 'Berlin', 'postcode': '10119', 'country': 'DE'}, 'createdAt': '2023-11-22T08:13:50Z'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1004', 'SK': 'PROFILE', 'EntityType': 'Customer', 'customerId': 'C1004', 'email': 'lukas.weber@example.de', 'fullName': 'Lukas Weber', 'phone': '+49 89 2180 7733', 'address': {'street': 'Leopoldstrasse 7', 'city': 'Munich', 'postcode': '80802', 'country': 'DE'}, 'createdAt': '2024-01-05T14:37:02Z'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1005', 'SK': 'PROFILE', 'EntityType': 'Customer', 'customerId': 'C1005', 'email': 'aisha.bello@example.org', 'fullName': 'Aisha Bello', 'phone': '+33 1 70 36 48 12', 'address': {'street': '12 Rue Oberkampf', 'city': 'Paris', 'postcode': '75011', 'country': 'FR'}, 'createdAt': '2024-01-28T21:09:44Z'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1006', 'SK': 'PROFILE', 'EntityType': 'Customer', 'customerId': 'C1006', 'email': 'tom.obrien@example.ie', 'fullName': 'Tom O''Brien', 'phone': '+353 1 555 0192', 'address': {'street': '3 Camden Row', 'city': 'Dublin', 'postcode': 'D08 W2C8', 'country': 'IE'}, 'createdAt': '2024-02-26T11:51:30Z'};

-- Email guards. DynamoDB enforces uniqueness only on the primary key, and email is not part of
-- the customer's key. So each customer also owns an item whose primary key IS the email:
-- PK = EMAIL#<email>, SK = EMAIL. The customer and the guard are written together in one
-- transaction, each with "must not exist yet" (attribute_not_exists(PK); a PartiQL INSERT
-- always carries that condition). A second customer with the same email fails on the guard,
-- and the whole transaction, customer included, is cancelled. See the pattern "create a
-- customer with a unique email". The guard keeps the customerId, so it doubles as the
-- "find a customer by email" lookup (a GetItem, no index needed).
INSERT INTO "Shop" VALUE {'PK': 'EMAIL#maria.garcia@example.com', 'SK': 'EMAIL', 'EntityType': 'EmailGuard', 'email': 'maria.garcia@example.com', 'customerId': 'C1001'};
INSERT INTO "Shop" VALUE {'PK': 'EMAIL#james.chen@example.net', 'SK': 'EMAIL', 'EntityType': 'EmailGuard', 'email': 'james.chen@example.net', 'customerId': 'C1002'};
INSERT INTO "Shop" VALUE {'PK': 'EMAIL#priya.patel@example.com', 'SK': 'EMAIL', 'EntityType': 'EmailGuard', 'email': 'priya.patel@example.com', 'customerId': 'C1003'};
INSERT INTO "Shop" VALUE {'PK': 'EMAIL#lukas.weber@example.de', 'SK': 'EMAIL', 'EntityType': 'EmailGuard', 'email': 'lukas.weber@example.de', 'customerId': 'C1004'};
INSERT INTO "Shop" VALUE {'PK': 'EMAIL#aisha.bello@example.org', 'SK': 'EMAIL', 'EntityType': 'EmailGuard', 'email': 'aisha.bello@example.org', 'customerId': 'C1005'};
INSERT INTO "Shop" VALUE {'PK': 'EMAIL#tom.obrien@example.ie', 'SK': 'EMAIL', 'EntityType': 'EmailGuard', 'email': 'tom.obrien@example.ie', 'customerId': 'C1006'};

-- Orders. They live in the customer's partition with SK = ORDER#<orderDate>#<orderId>: dates
-- as YYYY-MM-DD sort as strings in time order, so begins_with(SK, 'ORDER#') with ORDER BY SK
-- DESC lists a customer's orders newest first, and BETWEEN on two dates selects a period. The
-- order id suffix keeps two orders of the same day apart.
-- GSI1PK = GSI1SK = ORDER#<orderId> finds an order from its id alone (a tracking link).
-- Open orders (PLACED, PAID, SHIPPED) also carry OpenState and OpenSince and so appear in the
-- sparse OpenOrders index; DELIVERED and CANCELLED orders do not have those attributes at all
-- (not even empty: an empty or NULL value would be an error, not an absence).
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1001', 'SK': 'ORDER#2024-01-14#O1001', 'EntityType': 'Order', 'orderId': 'O1001', 'customerId': 'C1001', 'orderDate': '2024-01-14', 'placedAt': '2024-01-14T09:31:08Z', 'orderStatus': 'DELIVERED', 'itemCount': 3, 'total': 36.3, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1001', 'GSI1SK': 'ORDER#O1001'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1002', 'SK': 'ORDER#2024-01-22#O1002', 'EntityType': 'Order', 'orderId': 'O1002', 'customerId': 'C1002', 'orderDate': '2024-01-22', 'placedAt': '2024-01-22T20:14:55Z', 'orderStatus': 'DELIVERED', 'itemCount': 1, 'total': 89.0, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1002', 'GSI1SK': 'ORDER#O1002'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1003', 'SK': 'ORDER#2024-02-02#O1003', 'EntityType': 'Order', 'orderId': 'O1003', 'customerId': 'C1003', 'orderDate': '2024-02-02', 'placedAt': '2024-02-02T07:48:21Z', 'orderStatus': 'CANCELLED', 'itemCount': 2, 'total': 88.0, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1003', 'GSI1SK': 'ORDER#O1003'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1001', 'SK': 'ORDER#2024-02-09#O1004', 'EntityType': 'Order', 'orderId': 'O1004', 'customerId': 'C1001', 'orderDate': '2024-02-09', 'placedAt': '2024-02-09T12:05:43Z', 'orderStatus': 'DELIVERED', 'itemCount': 5, 'total': 62.0, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1004', 'GSI1SK': 'ORDER#O1004'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1004', 'SK': 'ORDER#2024-02-12#O1005', 'EntityType': 'Order', 'orderId': 'O1005', 'customerId': 'C1004', 'orderDate': '2024-02-12', 'placedAt': '2024-02-12T16:22:10Z', 'orderStatus': 'DELIVERED', 'itemCount': 1, 'total': 42.0, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1005', 'GSI1SK': 'ORDER#O1005'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1003', 'SK': 'ORDER#2024-02-18#O1006', 'EntityType': 'Order', 'orderId': 'O1006', 'customerId': 'C1003', 'orderDate': '2024-02-18', 'placedAt': '2024-02-18T10:40:36Z', 'orderStatus': 'DELIVERED', 'itemCount': 2, 'total': 54.8, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1006', 'GSI1SK': 'ORDER#O1006'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1005', 'SK': 'ORDER#2024-02-21#O1007', 'EntityType': 'Order', 'orderId': 'O1007', 'customerId': 'C1005', 'orderDate': '2024-02-21', 'placedAt': '2024-02-21T18:57:02Z', 'orderStatus': 'SHIPPED', 'itemCount': 2, 'total': 83.0, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1007', 'GSI1SK': 'ORDER#O1007', 'OpenState': 'SHIPPED', 'OpenSince': '2024-02-21T18:57:02Z'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1001', 'SK': 'ORDER#2024-02-27#O1008', 'EntityType': 'Order', 'orderId': 'O1008', 'customerId': 'C1001', 'orderDate': '2024-02-27', 'placedAt': '2024-02-27T08:19:50Z', 'orderStatus': 'DELIVERED', 'itemCount': 1, 'total': 42.0, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1008', 'GSI1SK': 'ORDER#O1008'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1002', 'SK': 'ORDER#2024-03-01#O1009', 'EntityType': 'Order', 'orderId': 'O1009', 'customerId': 'C1002', 'orderDate': '2024-03-01', 'placedAt': '2024-03-01T13:02:27Z', 'orderStatus': 'PAID', 'itemCount': 4, 'total': 63.7, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1009', 'GSI1SK': 'ORDER#O1009', 'OpenState': 'PAID', 'OpenSince': '2024-03-01T13:02:27Z'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1004', 'SK': 'ORDER#2024-03-02#O1010', 'EntityType': 'Order', 'orderId': 'O1010', 'customerId': 'C1004', 'orderDate': '2024-03-02', 'placedAt': '2024-03-02T09:44:18Z', 'orderStatus': 'PAID', 'itemCount': 1, 'total': 39.9, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1010', 'GSI1SK': 'ORDER#O1010', 'OpenState': 'PAID', 'OpenSince': '2024-03-02T09:44:18Z'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1001', 'SK': 'ORDER#2024-03-04#O1011', 'EntityType': 'Order', 'orderId': 'O1011', 'customerId': 'C1001', 'orderDate': '2024-03-04', 'placedAt': '2024-03-04T17:26:39Z', 'orderStatus': 'SHIPPED', 'itemCount': 4, 'total': 131.3, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1011', 'GSI1SK': 'ORDER#O1011', 'OpenState': 'SHIPPED', 'OpenSince': '2024-03-04T17:26:39Z'};
INSERT INTO "Shop" VALUE {'PK': 'CUSTOMER#C1003', 'SK': 'ORDER#2024-03-05#O1012', 'EntityType': 'Order', 'orderId': 'O1012', 'customerId': 'C1003', 'orderDate': '2024-03-05', 'placedAt': '2024-03-05T14:22:10Z', 'orderStatus': 'PLACED', 'itemCount': 2, 'total': 48.5, 'currency': 'EUR', 'GSI1PK': 'ORDER#O1012', 'GSI1SK': 'ORDER#O1012', 'OpenState': 'PLACED', 'OpenSince': '2024-03-05T14:22:10Z'};

-- Order items. An order's lines are its own partition: PK = ORDER#<orderId>, SK = ITEM#<lineNo>
-- with a two-digit line number ('01', '02', ...: zero-padded so line 10 sorts after line 9).
-- They repeat the order id in GSI1PK, next to the order itself, so one Query on GSI1 returns
-- the order header and its lines together (the lines first: 'ITEM#' sorts before 'ORDER#').
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1001', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1001', 'lineNo': '01', 'sku': 'BEAN-ETH-250', 'productName': 'Ethiopia Yirgacheffe beans, 250 g', 'quantity': 2, 'unitPrice': 14.9, 'GSI1PK': 'ORDER#O1001', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1001', 'SK': 'ITEM#02', 'EntityType': 'OrderItem', 'orderId': 'O1001', 'lineNo': '02', 'sku': 'FLT-V60-100', 'productName': 'Paper filters V60, 100 pcs', 'quantity': 1, 'unitPrice': 6.5, 'GSI1PK': 'ORDER#O1001', 'GSI1SK': 'ITEM#02'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1002', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1002', 'lineNo': '01', 'sku': 'GRD-HAND-01', 'productName': 'Hand grinder, steel burrs', 'quantity': 1, 'unitPrice': 89.0, 'GSI1PK': 'ORDER#O1002', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1003', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1003', 'lineNo': '01', 'sku': 'KTL-GOOSE-1L', 'productName': 'Gooseneck kettle, 1 l', 'quantity': 1, 'unitPrice': 64.0, 'GSI1PK': 'ORDER#O1003', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1003', 'SK': 'ITEM#02', 'EntityType': 'OrderItem', 'orderId': 'O1003', 'lineNo': '02', 'sku': 'DRP-V60-02', 'productName': 'Pour-over dripper, size 02', 'quantity': 1, 'unitPrice': 24.0, 'GSI1PK': 'ORDER#O1003', 'GSI1SK': 'ITEM#02'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1004', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1004', 'lineNo': '01', 'sku': 'DRP-V60-02', 'productName': 'Pour-over dripper, size 02', 'quantity': 1, 'unitPrice': 24.0, 'GSI1PK': 'ORDER#O1004', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1004', 'SK': 'ITEM#02', 'EntityType': 'OrderItem', 'orderId': 'O1004', 'lineNo': '02', 'sku': 'FLT-V60-100', 'productName': 'Paper filters V60, 100 pcs', 'quantity': 2, 'unitPrice': 6.5, 'GSI1PK': 'ORDER#O1004', 'GSI1SK': 'ITEM#02'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1004', 'SK': 'ITEM#03', 'EntityType': 'OrderItem', 'orderId': 'O1004', 'lineNo': '03', 'sku': 'MUG-CER-350', 'productName': 'Ceramic mug, 350 ml', 'quantity': 2, 'unitPrice': 12.5, 'GSI1PK': 'ORDER#O1004', 'GSI1SK': 'ITEM#03'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1005', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1005', 'lineNo': '01', 'sku': 'BEAN-COL-1K', 'productName': 'Colombia Huila beans, 1 kg', 'quantity': 1, 'unitPrice': 42.0, 'GSI1PK': 'ORDER#O1005', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1006', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1006', 'lineNo': '01', 'sku': 'SCL-BREW-01', 'productName': 'Brewing scale with timer', 'quantity': 1, 'unitPrice': 39.9, 'GSI1PK': 'ORDER#O1006', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1006', 'SK': 'ITEM#02', 'EntityType': 'OrderItem', 'orderId': 'O1006', 'lineNo': '02', 'sku': 'BEAN-ETH-250', 'productName': 'Ethiopia Yirgacheffe beans, 250 g', 'quantity': 1, 'unitPrice': 14.9, 'GSI1PK': 'ORDER#O1006', 'GSI1SK': 'ITEM#02'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1007', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1007', 'lineNo': '01', 'sku': 'KTL-GOOSE-1L', 'productName': 'Gooseneck kettle, 1 l', 'quantity': 1, 'unitPrice': 64.0, 'GSI1PK': 'ORDER#O1007', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1007', 'SK': 'ITEM#02', 'EntityType': 'OrderItem', 'orderId': 'O1007', 'lineNo': '02', 'sku': 'TIN-AIR-500', 'productName': 'Airtight coffee tin, 500 g', 'quantity': 1, 'unitPrice': 19.0, 'GSI1PK': 'ORDER#O1007', 'GSI1SK': 'ITEM#02'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1008', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1008', 'lineNo': '01', 'sku': 'BEAN-COL-1K', 'productName': 'Colombia Huila beans, 1 kg', 'quantity': 1, 'unitPrice': 42.0, 'GSI1PK': 'ORDER#O1008', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1009', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1009', 'lineNo': '01', 'sku': 'BEAN-ETH-250', 'productName': 'Ethiopia Yirgacheffe beans, 250 g', 'quantity': 3, 'unitPrice': 14.9, 'GSI1PK': 'ORDER#O1009', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1009', 'SK': 'ITEM#02', 'EntityType': 'OrderItem', 'orderId': 'O1009', 'lineNo': '02', 'sku': 'TIN-AIR-500', 'productName': 'Airtight coffee tin, 500 g', 'quantity': 1, 'unitPrice': 19.0, 'GSI1PK': 'ORDER#O1009', 'GSI1SK': 'ITEM#02'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1010', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1010', 'lineNo': '01', 'sku': 'SCL-BREW-01', 'productName': 'Brewing scale with timer', 'quantity': 1, 'unitPrice': 39.9, 'GSI1PK': 'ORDER#O1010', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1011', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1011', 'lineNo': '01', 'sku': 'GRD-HAND-01', 'productName': 'Hand grinder, steel burrs', 'quantity': 1, 'unitPrice': 89.0, 'GSI1PK': 'ORDER#O1011', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1011', 'SK': 'ITEM#02', 'EntityType': 'OrderItem', 'orderId': 'O1011', 'lineNo': '02', 'sku': 'BEAN-ETH-250', 'productName': 'Ethiopia Yirgacheffe beans, 250 g', 'quantity': 2, 'unitPrice': 14.9, 'GSI1PK': 'ORDER#O1011', 'GSI1SK': 'ITEM#02'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1011', 'SK': 'ITEM#03', 'EntityType': 'OrderItem', 'orderId': 'O1011', 'lineNo': '03', 'sku': 'MUG-CER-350', 'productName': 'Ceramic mug, 350 ml', 'quantity': 1, 'unitPrice': 12.5, 'GSI1PK': 'ORDER#O1011', 'GSI1SK': 'ITEM#03'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1012', 'SK': 'ITEM#01', 'EntityType': 'OrderItem', 'orderId': 'O1012', 'lineNo': '01', 'sku': 'BEAN-COL-1K', 'productName': 'Colombia Huila beans, 1 kg', 'quantity': 1, 'unitPrice': 42.0, 'GSI1PK': 'ORDER#O1012', 'GSI1SK': 'ITEM#01'};
INSERT INTO "Shop" VALUE {'PK': 'ORDER#O1012', 'SK': 'ITEM#02', 'EntityType': 'OrderItem', 'orderId': 'O1012', 'lineNo': '02', 'sku': 'FLT-V60-100', 'productName': 'Paper filters V60, 100 pcs', 'quantity': 1, 'unitPrice': 6.5, 'GSI1PK': 'ORDER#O1012', 'GSI1SK': 'ITEM#02'};

.quiet off
