-- Stores: a retail chain's store locator. The website lets a shopper drill down from a country
-- to a state or province, a city, a zip code and finally one store; each level is one Query.
--
-- The table: "Stores", keys PK (partition) and SK (sort), both strings. PK holds the country
-- code (USA, CAN): all stores of a country form one item collection, sorted by SK. SK is a
-- hierarchical composite key, <state>#<city>#<zipcode>#<storeId>, most general part first, so
-- every level of the hierarchy is a PREFIX of the sort key and begins_with(SK, ...) selects it:
--   country  PK = 'USA'
--   state    PK = 'USA' AND begins_with(SK, 'WA#')
--   city     PK = 'USA' AND begins_with(SK, 'WA#Seattle#')
--   zip      PK = 'USA' AND begins_with(SK, 'WA#Seattle#98101#')
--   store    PK = 'USA' AND SK = 'WA#Seattle#98101#1001'    (a GetItem)
-- The storeId ends the key because several stores can share a zip code: without it two stores
-- in 98101 would have the same key and overwrite each other. Every prefix ends with '#':
-- begins_with(SK, 'WA#Seattle') would also match a 'WA#Seattle Heights#...' store.
-- The key attributes are named PK and SK rather than Country and StateCityZipStore: generic
-- names are the single-table habit (another entity, say a regional office, could share the
-- table with keys of its own shape), and each segment is also kept as a plain attribute
-- (country, state, city, zipcode, storeId) for display and for keyhole's .model.
-- No index: every access pattern is a prefix of the one sort key. (A chain whose traffic on
-- one country outgrew a single partition could use PK = <country>#<state> instead, at the cost
-- of one Query per state to list a country.)
-- There is no type attribute: there is one entity, and every key has the same shape.
--
-- Entities and their keys:
--   entity | PK        | SK                                   | GSI keys
--   -------+-----------+--------------------------------------+---------
--   Store  | <country> | <state>#<city>#<zipcode>#<storeId>   | (none)
DROP TABLE IF EXISTS "Stores";
CREATE TABLE "Stores" (PK S HASH, SK S RANGE);
.quiet on

-- United States, PK = 'USA'. Codes, not names, for states (CA, NY, TX, WA): short, fixed
-- width and unambiguous, and the key sorts the states alphabetically by code. Zip codes are
-- strings of five digits: as numbers, 02134 would lose its zero and sort in the wrong place.
-- California: three cities; two San Francisco stores share zip 94103 (the storeId tells
-- them apart).
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'CA#Los Angeles#90012#1021', 'country': 'USA', 'state': 'CA', 'city': 'Los Angeles', 'zipcode': '90012', 'storeId': '1021', 'storeName': 'Los Angeles Civic Center', 'street': '250 S Broadway', 'phone': '+1-213-555-0142', 'openedAt': '2012-03-17T16:00:00Z', 'squareFeet': 18500, 'manager': 'Maria Gonzalez'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'CA#Los Angeles#90028#1022', 'country': 'USA', 'state': 'CA', 'city': 'Los Angeles', 'zipcode': '90028', 'storeId': '1022', 'storeName': 'Hollywood & Vine', 'street': '6290 Hollywood Blvd', 'phone': '+1-323-555-0198', 'openedAt': '2015-10-03T16:00:00Z', 'squareFeet': 24000, 'manager': 'Daniel Kim'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'CA#Los Angeles#90045#1023', 'country': 'USA', 'state': 'CA', 'city': 'Los Angeles', 'zipcode': '90045', 'storeId': '1023', 'storeName': 'Westchester', 'street': '8739 S Sepulveda Blvd', 'phone': '+1-310-555-0117', 'openedAt': '2019-06-22T16:00:00Z', 'squareFeet': 31000, 'manager': 'Priya Raman'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'CA#San Diego#92101#1031', 'country': 'USA', 'state': 'CA', 'city': 'San Diego', 'zipcode': '92101', 'storeId': '1031', 'storeName': 'Gaslamp Quarter', 'street': '555 Fifth Ave', 'phone': '+1-619-555-0164', 'openedAt': '2014-05-10T16:00:00Z', 'squareFeet': 16000, 'manager': 'Kevin O''Brien'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'CA#San Diego#92108#1032', 'country': 'USA', 'state': 'CA', 'city': 'San Diego', 'zipcode': '92108', 'storeId': '1032', 'storeName': 'Mission Valley', 'street': '1640 Camino Del Rio N', 'phone': '+1-619-555-0120', 'openedAt': '2018-11-17T16:00:00Z', 'squareFeet': 27500, 'manager': 'Ana Torres'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'CA#San Francisco#94103#1011', 'country': 'USA', 'state': 'CA', 'city': 'San Francisco', 'zipcode': '94103', 'storeId': '1011', 'storeName': 'SoMa', 'street': '845 Market St', 'phone': '+1-415-555-0181', 'openedAt': '2010-09-25T15:00:00Z', 'squareFeet': 22000, 'manager': 'Grace Liu'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'CA#San Francisco#94103#1012', 'country': 'USA', 'state': 'CA', 'city': 'San Francisco', 'zipcode': '94103', 'storeId': '1012', 'storeName': 'Yerba Buena', 'street': '101 4th St', 'phone': '+1-415-555-0136', 'openedAt': '2016-02-13T16:00:00Z', 'squareFeet': 12500, 'manager': 'Ethan Brooks'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'CA#San Francisco#94110#1013', 'country': 'USA', 'state': 'CA', 'city': 'San Francisco', 'zipcode': '94110', 'storeId': '1013', 'storeName': 'Mission District', 'street': '2300 Mission St', 'phone': '+1-415-555-0152', 'openedAt': '2021-04-24T15:00:00Z', 'squareFeet': 14000, 'manager': 'Sofia Hernandez'};

-- New York: the items sort by SK, so Buffalo (B) comes before New York (N) in the state.
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'NY#Buffalo#14202#1061', 'country': 'USA', 'state': 'NY', 'city': 'Buffalo', 'zipcode': '14202', 'storeId': '1061', 'storeName': 'Buffalo Downtown', 'street': '390 Main St', 'phone': '+1-716-555-0173', 'openedAt': '2017-08-05T14:00:00Z', 'squareFeet': 19000, 'manager': 'Michael Walsh'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'NY#New York#10001#1051', 'country': 'USA', 'state': 'NY', 'city': 'New York', 'zipcode': '10001', 'storeId': '1051', 'storeName': 'Herald Square', 'street': '151 W 34th St', 'phone': '+1-212-555-0109', 'openedAt': '2008-11-28T14:00:00Z', 'squareFeet': 42000, 'manager': 'Rachel Cohen'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'NY#New York#10013#1052', 'country': 'USA', 'state': 'NY', 'city': 'New York', 'zipcode': '10013', 'storeId': '1052', 'storeName': 'SoHo', 'street': '560 Broadway', 'phone': '+1-212-555-0126', 'openedAt': '2013-04-20T14:00:00Z', 'squareFeet': 15500, 'manager': 'James Park'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'NY#New York#10036#1053', 'country': 'USA', 'state': 'NY', 'city': 'New York', 'zipcode': '10036', 'storeId': '1053', 'storeName': 'Times Square', 'street': '1530 Broadway', 'phone': '+1-212-555-0190', 'openedAt': '2011-12-09T15:00:00Z', 'squareFeet': 28000, 'manager': 'Olivia Bennett'};

-- Texas.
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'TX#Austin#78701#1071', 'country': 'USA', 'state': 'TX', 'city': 'Austin', 'zipcode': '78701', 'storeId': '1071', 'storeName': 'Austin Congress Ave', 'street': '600 Congress Ave', 'phone': '+1-512-555-0148', 'openedAt': '2014-09-13T15:00:00Z', 'squareFeet': 21000, 'manager': 'Carlos Mendoza'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'TX#Austin#78704#1072', 'country': 'USA', 'state': 'TX', 'city': 'Austin', 'zipcode': '78704', 'storeId': '1072', 'storeName': 'South Lamar', 'street': '1000 S Lamar Blvd', 'phone': '+1-512-555-0111', 'openedAt': '2020-02-29T16:00:00Z', 'squareFeet': 26000, 'manager': 'Hannah Schultz'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'TX#Houston#77002#1081', 'country': 'USA', 'state': 'TX', 'city': 'Houston', 'zipcode': '77002', 'storeId': '1081', 'storeName': 'Houston Main Street', 'street': '1001 Main St', 'phone': '+1-713-555-0157', 'openedAt': '2012-07-21T15:00:00Z', 'squareFeet': 23500, 'manager': 'Marcus Johnson'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'TX#Houston#77056#1082', 'country': 'USA', 'state': 'TX', 'city': 'Houston', 'zipcode': '77056', 'storeId': '1082', 'storeName': 'Galleria', 'street': '5085 Westheimer Rd', 'phone': '+1-713-555-0133', 'openedAt': '2016-10-15T15:00:00Z', 'squareFeet': 38000, 'manager': 'Emily Nguyen'};

-- Washington: Seattle has two stores in zip 98101 and one in 98109.
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'WA#Bellevue#98004#1006', 'country': 'USA', 'state': 'WA', 'city': 'Bellevue', 'zipcode': '98004', 'storeId': '1006', 'storeName': 'Bellevue Square', 'street': '575 Bellevue Square', 'phone': '+1-425-555-0185', 'openedAt': '2011-05-14T15:00:00Z', 'squareFeet': 29000, 'manager': 'Ryan Cooper'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'WA#Bellevue#98007#1007', 'country': 'USA', 'state': 'WA', 'city': 'Bellevue', 'zipcode': '98007', 'storeId': '1007', 'storeName': 'Crossroads', 'street': '15600 NE 8th St', 'phone': '+1-425-555-0129', 'openedAt': '2018-03-10T16:00:00Z', 'squareFeet': 17500, 'manager': 'Aisha Mohammed'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'WA#Seattle#98101#1001', 'country': 'USA', 'state': 'WA', 'city': 'Seattle', 'zipcode': '98101', 'storeId': '1001', 'storeName': 'Seattle Downtown', 'street': '1420 5th Ave', 'phone': '+1-206-555-0100', 'openedAt': '2006-10-21T15:00:00Z', 'squareFeet': 35000, 'manager': 'Laura Chen'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'WA#Seattle#98101#1002', 'country': 'USA', 'state': 'WA', 'city': 'Seattle', 'zipcode': '98101', 'storeId': '1002', 'storeName': 'Pike Place', 'street': '1530 Post Alley', 'phone': '+1-206-555-0177', 'openedAt': '2015-06-06T15:00:00Z', 'squareFeet': 9500, 'manager': 'Tom Anderson'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'WA#Seattle#98109#1003', 'country': 'USA', 'state': 'WA', 'city': 'Seattle', 'zipcode': '98109', 'storeId': '1003', 'storeName': 'South Lake Union', 'street': '400 Westlake Ave N', 'phone': '+1-206-555-0145', 'openedAt': '2019-09-28T15:00:00Z', 'squareFeet': 20500, 'manager': 'Nina Patel'};
INSERT INTO "Stores" VALUE {'PK': 'USA', 'SK': 'WA#Tacoma#98402#1008', 'country': 'USA', 'state': 'WA', 'city': 'Tacoma', 'zipcode': '98402', 'storeId': '1008', 'storeName': 'Tacoma Pacific Ave', 'street': '1102 Pacific Ave', 'phone': '+1-253-555-0162', 'openedAt': '2017-04-15T15:00:00Z', 'squareFeet': 18000, 'manager': 'Derek Lewis'};

-- Canada, PK = 'CAN'. Provinces take the state slot (BC, ON, QC) and postal codes the zip
-- slot, written as Canada Post does ('V6B 1A1'): the key shape stays the same for both
-- countries, so the same four Queries work everywhere.
INSERT INTO "Stores" VALUE {'PK': 'CAN', 'SK': 'BC#Vancouver#V6B 1A1#2011', 'country': 'CAN', 'state': 'BC', 'city': 'Vancouver', 'zipcode': 'V6B 1A1', 'storeId': '2011', 'storeName': 'Vancouver Robson', 'street': '750 Robson St', 'phone': '+1-604-555-0138', 'openedAt': '2013-06-15T16:00:00Z', 'squareFeet': 24500, 'manager': 'Jenny Wong'};
INSERT INTO "Stores" VALUE {'PK': 'CAN', 'SK': 'BC#Vancouver#V6C 3L6#2012', 'country': 'CAN', 'state': 'BC', 'city': 'Vancouver', 'zipcode': 'V6C 3L6', 'storeId': '2012', 'storeName': 'Waterfront', 'street': '200 Granville St', 'phone': '+1-604-555-0171', 'openedAt': '2019-05-18T16:00:00Z', 'squareFeet': 13000, 'manager': 'Liam MacDonald'};

-- Ontario: two Toronto stores share the postal code M5V 2T6.
INSERT INTO "Stores" VALUE {'PK': 'CAN', 'SK': 'ON#Ottawa#K1P 5G4#2031', 'country': 'CAN', 'state': 'ON', 'city': 'Ottawa', 'zipcode': 'K1P 5G4', 'storeId': '2031', 'storeName': 'Ottawa Sparks Street', 'street': '110 Sparks St', 'phone': '+1-613-555-0153', 'openedAt': '2016-09-10T14:00:00Z', 'squareFeet': 16500, 'manager': 'Chloe Tremblay'};
INSERT INTO "Stores" VALUE {'PK': 'CAN', 'SK': 'ON#Toronto#M5B 2H1#2021', 'country': 'CAN', 'state': 'ON', 'city': 'Toronto', 'zipcode': 'M5B 2H1', 'storeId': '2021', 'storeName': 'Toronto Eaton Centre', 'street': '220 Yonge St', 'phone': '+1-416-555-0104', 'openedAt': '2009-08-22T14:00:00Z', 'squareFeet': 40000, 'manager': 'Arjun Singh'};
INSERT INTO "Stores" VALUE {'PK': 'CAN', 'SK': 'ON#Toronto#M5V 2T6#2022', 'country': 'CAN', 'state': 'ON', 'city': 'Toronto', 'zipcode': 'M5V 2T6', 'storeId': '2022', 'storeName': 'Entertainment District', 'street': '300 King St W', 'phone': '+1-416-555-0168', 'openedAt': '2014-11-29T15:00:00Z', 'squareFeet': 21500, 'manager': 'Sarah Mitchell'};
INSERT INTO "Stores" VALUE {'PK': 'CAN', 'SK': 'ON#Toronto#M5V 2T6#2023', 'country': 'CAN', 'state': 'ON', 'city': 'Toronto', 'zipcode': 'M5V 2T6', 'storeId': '2023', 'storeName': 'Harbourfront', 'street': '207 Queens Quay W', 'phone': '+1-416-555-0140', 'openedAt': '2022-05-21T14:00:00Z', 'squareFeet': 11000, 'manager': 'Noah Campbell'};

-- Quebec.
INSERT INTO "Stores" VALUE {'PK': 'CAN', 'SK': 'QC#Montreal#H3B 4W8#2041', 'country': 'CAN', 'state': 'QC', 'city': 'Montreal', 'zipcode': 'H3B 4W8', 'storeId': '2041', 'storeName': 'Montreal Sainte-Catherine', 'street': '705 Rue Sainte-Catherine O', 'phone': '+1-514-555-0187', 'openedAt': '2012-10-13T14:00:00Z', 'squareFeet': 27000, 'manager': 'Camille Gagnon'};
INSERT INTO "Stores" VALUE {'PK': 'CAN', 'SK': 'QC#Montreal#H2X 1Y6#2042', 'country': 'CAN', 'state': 'QC', 'city': 'Montreal', 'zipcode': 'H2X 1Y6', 'storeId': '2042', 'storeName': 'Quartier des Spectacles', 'street': '1500 Boul Saint-Laurent', 'phone': '+1-514-555-0115', 'openedAt': '2020-08-29T14:00:00Z', 'squareFeet': 14500, 'manager': 'Olivier Roy'};
.quiet off
