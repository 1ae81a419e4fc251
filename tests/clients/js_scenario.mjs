// The AWS SDK for JavaScript v3 against `keyhole serve`: a smaller scenario than boto3's, through
// the SDK's own (de)serializers, waiters, paginators, modeled exceptions and document client.
// Starts `keyhole serve` on a fresh database on a free loopback port, checks every result
// precisely, and stops the server by its PID with SIGTERM.
//
// Usage: KEYHOLE_JS_MODULES=DIR node js_scenario.mjs KEYHOLE
// where DIR/node_modules holds @aws-sdk/client-dynamodb and @aws-sdk/lib-dynamodb (js_test.sh).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, inspect } from 'node:util';

const KEYHOLE = process.argv[2];
const MODULES = process.env.KEYHOLE_JS_MODULES;
if (!KEYHOLE || !MODULES) {
  console.error('usage: KEYHOLE_JS_MODULES=DIR node js_scenario.mjs KEYHOLE');
  process.exit(2);
}
const require = createRequire(join(MODULES, 'package.json'));
const ddb = require('@aws-sdk/client-dynamodb');
const lib = require('@aws-sdk/lib-dynamodb');

const failures = [];
const show = (v) => inspect(v, { depth: 8, breakLength: Infinity });
function check(name, condition, detail) {
  if (!condition) failures.push(`${name}: ${detail === undefined ? '' : show(detail)}`);
}
function checkEqual(name, actual, expected) {
  if (!isDeepStrictEqual(actual, expected)) {
    failures.push(`${name}: expected ${show(expected)}, got ${show(actual)}`);
  }
}
// Runs fn, which must fail with the error named `name`; returns the error (or null).
async function expectError(label, name, fn) {
  try {
    const out = await fn();
    failures.push(`${label}: expected ${name}, but it succeeded: ${show(out)}`);
    return null;
  } catch (e) {
    if (e?.name !== name) {
      failures.push(`${label}: expected ${name}, got ${e?.name}: ${e?.message}`);
    }
    return e;
  }
}
// Sets come back in no particular order: sorts them so that items compare as values.
function canonical(v) {
  if (Array.isArray(v)) return v.map(canonical);
  if (v instanceof Uint8Array) return Buffer.from(v).toString('hex');
  if (v instanceof Set) return [...v].map(canonical).sort();
  if (v && typeof v === 'object') {
    const out = {};
    for (const key of Object.keys(v).sort()) {
      const x = v[key];
      if (key === 'SS' || key === 'NS') out[key] = [...x].sort();
      else if (key === 'BS') out[key] = x.map(canonical).sort();
      else out[key] = canonical(x);
    }
    return out;
  }
  return v;
}

function startServer(db) {
  return new Promise((resolve, reject) => {
    const server = spawn(KEYHOLE, ['serve', db, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    server.stderrText = '';
    server.stderr.setEncoding('utf8');
    server.stderr.on('data', (d) => { server.stderrText += d; });
    server.exited = new Promise((done) => server.on('exit', (code, signal) => done({ code, signal })));
    const timer = setTimeout(() => reject(new Error(`keyhole serve printed no URL: ${out}`)), 15000);
    server.on('error', (e) => { clearTimeout(timer); reject(e); });
    server.stdout.setEncoding('utf8');
    server.stdout.on('data', (d) => {
      out += d;
      const line = out.split('\n')[0];
      if (!out.includes('\n')) return;
      clearTimeout(timer);
      const m = /listening on (http:\/\/\S+)/.exec(line);
      if (m) resolve({ server, url: m[1] });
      else reject(new Error(`keyhole serve did not start: ${line} ${server.stderrText}`));
    });
    server.exited.then(({ code }) => {
      clearTimeout(timer);
      reject(new Error(`keyhole serve exited with ${code} before it listened: ${server.stderrText}`));
    });
  });
}

async function scenario(client) {
  const T = 'JsTest';
  const send = (Command, input) => client.send(new Command(input));

  // Tables: a composite key and a KEYS_ONLY index on (g, sk).
  const created = await send(ddb.CreateTableCommand, {
    TableName: T,
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' },
      { AttributeName: 'sk', AttributeType: 'N' }, { AttributeName: 'g', AttributeType: 'S' }],
    GlobalSecondaryIndexes: [{
      IndexName: 'byG',
      KeySchema: [{ AttributeName: 'g', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }],
      Projection: { ProjectionType: 'KEYS_ONLY' },
    }],
    BillingMode: 'PAY_PER_REQUEST',
  });
  const td = created.TableDescription;
  checkEqual('create table name', td?.TableName, T);
  checkEqual('create key schema', td?.KeySchema,
    [{ AttributeName: 'pk', KeyType: 'HASH' }, { AttributeName: 'sk', KeyType: 'RANGE' }]);
  check('create status', ['CREATING', 'ACTIVE'].includes(td?.TableStatus), td?.TableStatus);
  checkEqual('create gsi', td?.GlobalSecondaryIndexes?.map((i) => [i.IndexName, i.Projection?.ProjectionType]),
    [['byG', 'KEYS_ONLY']]);
  const waited = await ddb.waitUntilTableExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 2 },
    { TableName: T });
  checkEqual('wait until exists', waited.state, 'SUCCESS');
  const described = (await send(ddb.DescribeTableCommand, { TableName: T })).Table;
  checkEqual('describe status', described?.TableStatus, 'ACTIVE');
  checkEqual('describe gsi status', described?.GlobalSecondaryIndexes?.[0]?.IndexStatus, 'ACTIVE');
  checkEqual('list tables', (await send(ddb.ListTablesCommand, {})).TableNames, [T]);

  // Items: every type, numbers as DynamoDB normalizes them, binary as Uint8Array.
  const key = { pk: { S: 'a' }, sk: { N: '1' } };
  const item = {
    ...key,
    n: { N: '-12.50' },
    big: { N: '12345678901234567890123456789012345678' },
    tiny: { N: '0.000001' },
    s: { S: 'héllo ☃' },
    empty: { S: '' },
    ss: { SS: ['y', 'x'] },
    ns: { NS: ['2.5', '1'] },
    bs: { BS: [new Uint8Array([2]), new Uint8Array([0, 1])] },
    b: { B: new Uint8Array([0, 1, 255]) },
    t: { BOOL: true },
    nul: { NULL: true },
    m: { M: { kids: { L: [{ S: 'p' }, { N: '3' }, { M: { deep: { BOOL: false } } }] }, e: { M: {} } } },
  };
  const put = await send(ddb.PutItemCommand, { TableName: T, Item: item });
  check('put returns no attributes', put.Attributes === undefined, put.Attributes);
  const got = await send(ddb.GetItemCommand, { TableName: T, Key: key, ConsistentRead: true });
  check('get binary is a Uint8Array', got.Item?.b?.B instanceof Uint8Array, got.Item?.b);
  checkEqual('get item', canonical(got.Item), canonical({ ...item, n: { N: '-12.5' } }));
  const missing = await send(ddb.GetItemCommand, { TableName: T, Key: { pk: { S: 'a' }, sk: { N: '2' } } });
  check('get missing has no Item', !('Item' in missing) || missing.Item === undefined, missing);

  // UpdateItem with every clause kind and ReturnValues ALL_NEW.
  const updated = await send(ddb.UpdateItemCommand, {
    TableName: T,
    Key: key,
    UpdateExpression: 'SET #n = #n + :d, m.kids[0] = :q, l = list_append(if_not_exists(l, :nil), :l) '
      + 'REMOVE nul, m.e ADD ss :more, cnt :one DELETE ns :ones',
    ConditionExpression: 'attribute_exists(pk) AND size(ss) = :two',
    ExpressionAttributeNames: { '#n': 'n' },
    ExpressionAttributeValues: {
      ':d': { N: '2.5' }, ':q': { S: 'q' }, ':nil': { L: [] }, ':l': { L: [{ N: '7' }] },
      ':more': { SS: ['z'] }, ':one': { N: '1' }, ':ones': { NS: ['1'] }, ':two': { N: '2' },
    },
    ReturnValues: 'ALL_NEW',
  });
  const a = updated.Attributes;
  checkEqual('update n', a?.n, { N: '-10' });
  checkEqual('update nested list element', a?.m?.M?.kids?.L?.[0], { S: 'q' });
  checkEqual('update remove nested', a?.m?.M && Object.keys(a.m.M), ['kids']);
  checkEqual('update list_append', a?.l, { L: [{ N: '7' }] });
  checkEqual('update add to set', [...(a?.ss?.SS ?? [])].sort(), ['x', 'y', 'z']);
  checkEqual('update add number', a?.cnt, { N: '1' });
  checkEqual('update delete from set', a?.ns, { NS: ['2.5'] });
  check('update remove', a && !('nul' in a), a);
  checkEqual('update keeps the rest', a && canonical({ b: a.b, big: a.big, s: a.s, empty: a.empty }),
    canonical({ b: item.b, big: item.big, s: item.s, empty: item.empty }));
  checkEqual('update attribute count', a && Object.keys(a).sort(),
    ['b', 'big', 'bs', 'cnt', 'empty', 'l', 'm', 'n', 'ns', 'pk', 's', 'sk', 'ss', 't', 'tiny']);
  const updatedOld = await send(ddb.UpdateItemCommand, {
    TableName: T, Key: key, UpdateExpression: 'SET cnt = cnt + :one',
    ExpressionAttributeValues: { ':one': { N: '1' } }, ReturnValues: 'UPDATED_OLD',
  });
  checkEqual('update UPDATED_OLD', updatedOld.Attributes, { cnt: { N: '1' } });

  // A conditional put that fails, returning the old item.
  const ccf = await expectError('conditional put', 'ConditionalCheckFailedException', () =>
    send(ddb.PutItemCommand, {
      TableName: T, Item: { ...key, v: { S: 'overwritten' } },
      ConditionExpression: 'attribute_not_exists(pk)',
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    }));
  if (ccf) {
    check('conditional put is a ConditionalCheckFailedException',
      ccf instanceof ddb.ConditionalCheckFailedException, ccf.constructor?.name);
    checkEqual('conditional put message', ccf.message, 'The conditional request failed');
    checkEqual('conditional put status', ccf.$metadata?.httpStatusCode, 400);
    checkEqual('conditional put fault', ccf.$fault, 'client');
    check('conditional put carries the item', ccf.Item !== undefined, ccf.Item);
    checkEqual('conditional put old item', ccf.Item && [ccf.Item.n, ccf.Item.cnt, ccf.Item.pk],
      [{ N: '-10' }, { N: '2' }, { S: 'a' }]);
  }
  const ccfNoItem = await expectError('conditional delete', 'ConditionalCheckFailedException', () =>
    send(ddb.DeleteItemCommand, { TableName: T, Key: key, ConditionExpression: 'cnt > :x',
      ExpressionAttributeValues: { ':x': { N: '100' } } }));
  check('without ReturnValuesOnConditionCheckFailure no item', ccfNoItem && ccfNoItem.Item === undefined,
    ccfNoItem?.Item);
  checkEqual('conditional put left the item', (await send(ddb.GetItemCommand,
    { TableName: T, Key: key, ProjectionExpression: 'v, cnt' })).Item, { cnt: { N: '2' } });

  // BatchWriteItem: ten items under one partition key, half of them "even".
  const written = await send(ddb.BatchWriteItemCommand, {
    RequestItems: {
      [T]: Array.from({ length: 10 }, (_, i) => ({
        PutRequest: { Item: { pk: { S: 'q' }, sk: { N: String(i + 1) }, g: { S: (i + 1) % 2 ? 'odd' : 'even' },
          v: { S: `v${i + 1}` } } },
      })),
    },
  });
  checkEqual('batch write unprocessed', written.UnprocessedItems, {});

  // Query with the SDK's paginator: Limit 3 over sk > 2 gives pages of 3, 3 and 2.
  const pages = [];
  for await (const page of ddb.paginateQuery({ client, pageSize: 3 }, {
    TableName: T, KeyConditionExpression: 'pk = :p AND sk > :s',
    ExpressionAttributeValues: { ':p': { S: 'q' }, ':s': { N: '2' } },
  })) {
    pages.push(page);
  }
  checkEqual('paginated counts', pages.map((p) => p.Count), [3, 3, 2]);
  checkEqual('paginated scanned counts', pages.map((p) => p.ScannedCount), [3, 3, 2]);
  checkEqual('paginated order', pages.flatMap((p) => p.Items.map((x) => Number(x.sk.N))), [3, 4, 5, 6, 7, 8, 9, 10]);
  checkEqual('paginated last keys', pages.map((p) => p.LastEvaluatedKey),
    [{ pk: { S: 'q' }, sk: { N: '5' } }, { pk: { S: 'q' }, sk: { N: '8' } }, undefined]);
  // Filters count what they read: ScannedCount is before the filter, Count after it.
  const filtered = await send(ddb.QueryCommand, {
    TableName: T, KeyConditionExpression: 'pk = :p', FilterExpression: 'g = :g',
    ExpressionAttributeValues: { ':p': { S: 'q' }, ':g': { S: 'odd' } }, Select: 'COUNT',
  });
  checkEqual('filtered counts', [filtered.Count, filtered.ScannedCount, filtered.Items], [5, 10, undefined]);

  // The index, backwards, two at a time, by hand on LastEvaluatedKey.
  const seen = [];
  const lastKeys = [];
  let start;
  for (let round = 0; round < 10; round++) {
    const page = await send(ddb.QueryCommand, {
      TableName: T, IndexName: 'byG', KeyConditionExpression: 'g = :g',
      ExpressionAttributeValues: { ':g': { S: 'even' } }, ScanIndexForward: false, Limit: 2,
      ExclusiveStartKey: start,
    });
    for (const x of page.Items) {
      seen.push(Number(x.sk.N));
      checkEqual(`gsi KEYS_ONLY projection of ${x.sk.N}`, Object.keys(x).sort(), ['g', 'pk', 'sk']);
    }
    start = page.LastEvaluatedKey;
    lastKeys.push(start);
    if (!start) break;
  }
  checkEqual('gsi query order', seen, [10, 8, 6, 4, 2]);
  checkEqual('gsi last evaluated key', lastKeys[0], { g: { S: 'even' }, pk: { S: 'q' }, sk: { N: '8' } });
  await expectError('gsi consistent read', 'ValidationException', () => send(ddb.QueryCommand, {
    TableName: T, IndexName: 'byG', KeyConditionExpression: 'g = :g', ConsistentRead: true,
    ExpressionAttributeValues: { ':g': { S: 'even' } },
  }));

  // BatchGetItem with a projection and a key that is not there.
  const batch = await send(ddb.BatchGetItemCommand, {
    RequestItems: {
      [T]: {
        Keys: [{ pk: { S: 'q' }, sk: { N: '1' } }, { pk: { S: 'q' }, sk: { N: '2' } },
          { pk: { S: 'nobody' }, sk: { N: '1' } }],
        ProjectionExpression: 'sk, v',
      },
    },
  });
  checkEqual('batch get', canonical(batch.Responses?.[T]?.sort((x, y) => Number(x.sk.N) - Number(y.sk.N))),
    canonical([{ sk: { N: '1' }, v: { S: 'v1' } }, { sk: { N: '2' }, v: { S: 'v2' } }]));
  checkEqual('batch get unprocessed', batch.UnprocessedKeys, {});
  const written2 = await send(ddb.BatchWriteItemCommand, {
    RequestItems: {
      [T]: [{ DeleteRequest: { Key: { pk: { S: 'q' }, sk: { N: '10' } } } },
        { PutRequest: { Item: { pk: { S: 'q' }, sk: { N: '11' } } } }],
    },
  });
  checkEqual('batch write 2 unprocessed', written2.UnprocessedItems, {});
  const count = await send(ddb.QueryCommand, { TableName: T, KeyConditionExpression: 'pk = :p',
    ExpressionAttributeValues: { ':p': { S: 'q' } }, ProjectionExpression: 'sk' });
  checkEqual('after batch write', count.Items.map((x) => x.sk.N),
    ['1', '2', '3', '4', '5', '6', '7', '8', '9', '11']);

  // A transaction cancelled: its reasons in order, the failed check with the old item.
  const tce = await expectError('transaction', 'TransactionCanceledException', () =>
    send(ddb.TransactWriteItemsCommand, {
      TransactItems: [
        { Put: { TableName: T, Item: { pk: { S: 't' }, sk: { N: '1' } } } },
        { ConditionCheck: { TableName: T, Key: key, ConditionExpression: 'attribute_not_exists(pk)',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD' } },
        { Update: { TableName: T, Key: { pk: { S: 'q' }, sk: { N: '1' } }, UpdateExpression: 'SET v = :v',
          ExpressionAttributeValues: { ':v': { S: 'changed' } } } },
        { Delete: { TableName: T, Key: { pk: { S: 'q' }, sk: { N: '2' } }, ConditionExpression: 'v = :x',
          ExpressionAttributeValues: { ':x': { S: 'nope' } } } },
      ],
    }));
  if (tce) {
    check('transaction is a TransactionCanceledException', tce instanceof ddb.TransactionCanceledException,
      tce.constructor?.name);
    checkEqual('transaction message', tce.message, 'Transaction cancelled, please refer cancellation '
      + 'reasons for specific reasons [None, ConditionalCheckFailed, None, ConditionalCheckFailed]');
    const reasons = tce.CancellationReasons ?? [];
    checkEqual('cancellation codes', reasons.map((r) => r.Code), ['None', 'ConditionalCheckFailed', 'None',
      'ConditionalCheckFailed']);
    checkEqual('cancellation messages', reasons.map((r) => r.Message),
      [undefined, 'The conditional request failed', undefined, 'The conditional request failed']);
    checkEqual('cancellation old item', reasons[1]?.Item && [reasons[1].Item.pk, reasons[1].Item.cnt],
      [{ S: 'a' }, { N: '2' }]);
    check('no old item without asking', reasons[3] && reasons[3].Item === undefined, reasons[3]);
  }
  const afterTx = await send(ddb.BatchGetItemCommand, { RequestItems: { [T]: { Keys: [
    { pk: { S: 't' }, sk: { N: '1' } }, { pk: { S: 'q' }, sk: { N: '1' } }] } } });
  checkEqual('cancelled transaction wrote nothing', afterTx.Responses?.[T]?.map((x) => x.v), [{ S: 'v1' }]);

  // The document client: plain JavaScript values both ways.
  const doc = lib.DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  const docItem = {
    pk: 'doc', sk: 1, name: 'Doc', price: 19.99, neg: -3, ok: true, none: null,
    tags: new Set(['b', 'a']), nums: new Set([3, 1]),
    bin: new Uint8Array([9, 8, 7]),
    nested: { xs: [1, 'two', { three: 3 }, [false]], empty: {}, gone: undefined },
  };
  await doc.send(new lib.PutCommand({ TableName: T, Item: docItem }));
  const docGot = (await doc.send(new lib.GetCommand({ TableName: T, Key: { pk: 'doc', sk: 1 } }))).Item;
  const { gone, ...nestedWithoutUndefined } = docItem.nested;
  checkEqual('document round trip', canonical(docGot), canonical({ ...docItem, nested: nestedWithoutUndefined }));
  check('document set is a Set', docGot?.tags instanceof Set, docGot?.tags);
  const docUpdated = await doc.send(new lib.UpdateCommand({
    TableName: T, Key: { pk: 'doc', sk: 1 }, UpdateExpression: 'SET price = price - :d, nested.xs[1] = :s',
    ExpressionAttributeValues: { ':d': 9.99, ':s': 'TWO' }, ReturnValues: 'UPDATED_NEW',
  }));
  checkEqual('document update', docUpdated.Attributes, { price: 10, nested: { xs: ['TWO'] } });
  const docQuery = await doc.send(new lib.QueryCommand({
    TableName: T, KeyConditionExpression: 'pk = :p AND sk BETWEEN :lo AND :hi',
    ExpressionAttributeValues: { ':p': 'q', ':lo': 4, ':hi': 6 }, ProjectionExpression: 'sk, v',
  }));
  checkEqual('document query', docQuery.Items, [{ sk: 4, v: 'v4' }, { sk: 5, v: 'v5' }, { sk: 6, v: 'v6' }]);

  // PartiQL.
  const selected = await send(ddb.ExecuteStatementCommand, {
    Statement: `SELECT sk, v FROM "${T}" WHERE pk = ? AND sk = ?`, Parameters: [{ S: 'q' }, { N: '3' }],
  });
  checkEqual('partiql select', selected.Items, [{ sk: { N: '3' }, v: { S: 'v3' } }]);
  const selectedNone = await send(ddb.ExecuteStatementCommand, {
    Statement: `SELECT * FROM "${T}" WHERE pk = ? AND sk = ?`, Parameters: [{ S: 'q' }, { N: '99' }],
  });
  checkEqual('partiql select nothing', selectedNone.Items, []);
  await send(ddb.ExecuteStatementCommand, {
    Statement: `INSERT INTO "${T}" VALUE {'pk': ?, 'sk': ?, 'v': ?}`,
    Parameters: [{ S: 'p' }, { N: '1' }, { S: 'inserted' }],
  });
  const dup = await expectError('partiql duplicate insert', 'DuplicateItemException', () =>
    send(ddb.ExecuteStatementCommand, { Statement: `INSERT INTO "${T}" VALUE {'pk': 'p', 'sk': 1}` }));
  checkEqual('partiql duplicate message', dup?.message, 'Duplicate primary key exists in table');
  await send(ddb.ExecuteStatementCommand, {
    Statement: `UPDATE "${T}" SET v = 'updated' WHERE pk = 'p' AND sk = 1` });
  checkEqual('partiql update', (await send(ddb.GetItemCommand, { TableName: T, Key: { pk: { S: 'p' }, sk: { N: '1' } } }))
    .Item?.v, { S: 'updated' });

  // Errors as the SDK models them.
  const rnf = await expectError('describe missing', 'ResourceNotFoundException', () =>
    send(ddb.DescribeTableCommand, { TableName: 'Nope' }));
  if (rnf) {
    check('missing is a ResourceNotFoundException', rnf instanceof ddb.ResourceNotFoundException,
      rnf.constructor?.name);
    checkEqual('missing message', rnf.message, 'Requested resource not found: Table: Nope not found');
    checkEqual('missing status', rnf.$metadata?.httpStatusCode, 400);
  }
  const inUse = await expectError('create twice', 'ResourceInUseException', () => send(ddb.CreateTableCommand, {
    TableName: T, KeySchema: [{ AttributeName: 'k', KeyType: 'HASH' }],
    AttributeDefinitions: [{ AttributeName: 'k', AttributeType: 'S' }], BillingMode: 'PAY_PER_REQUEST',
  }));
  checkEqual('create twice message', inUse?.message, `Table already exists: ${T}`);
  const invalid = await expectError('bad update expression', 'ValidationException', () =>
    send(ddb.UpdateItemCommand, { TableName: T, Key: key, UpdateExpression: 'SET = 1' }));
  check('validation message', typeof invalid?.message === 'string' && invalid.message.startsWith('Invalid UpdateExpression'),
    invalid?.message);

  // Deleting the table.
  const deleted = await send(ddb.DeleteTableCommand, { TableName: T });
  checkEqual('delete table', deleted.TableDescription?.TableName, T);
  const gone2 = await ddb.waitUntilTableNotExists({ client, maxWaitTime: 30, minDelay: 1, maxDelay: 2 },
    { TableName: T });
  checkEqual('wait until not exists', gone2.state, 'SUCCESS');
  checkEqual('no tables left', (await send(ddb.ListTablesCommand, {})).TableNames, []);
}

// Vector indexes (2026): CreateTable's VectorIndexes, writes checked against them and reporting
// VectorWriteRequestBytes, SearchVectorsCommand (sent to the overridden endpoint as is), and
// UpdateTable's VectorIndexUpdates. An SDK older than vector indexes (Node 18's pin) skips it.
async function vectorScenario(client) {
  if (!ddb.SearchVectorsCommand) {
    console.log(`js: @aws-sdk/client-dynamodb here has no SearchVectorsCommand: vector index checks skipped`);
    return;
  }
  const send = (Command, input) => client.send(new Command(input));
  const T = 'JsVectors';
  const vec = (...xs) => ({ L: xs.map((x) => ({ N: String(x) })) });
  await send(ddb.CreateTableCommand, {
    TableName: T, BillingMode: 'PAY_PER_REQUEST',
    AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }, { AttributeName: 'tenant', AttributeType: 'S' },
      { AttributeName: 'kind', AttributeType: 'N' }],
    KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    VectorIndexes: [{
      IndexName: 'byMeaning', VectorAttribute: { AttributeName: 'embedding' },
      SearchSchema: [{ AttributeName: 'tenant', SearchSchemaElementType: 'HASH' },
        { AttributeName: 'kind', SearchSchemaElementType: 'INLINE_FILTER' }],
      Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['text'] }, Dimensions: 3, DistanceFunction: 'COSINE',
    }],
  });
  const described = (await send(ddb.DescribeTableCommand, { TableName: T })).Table?.VectorIndexes;
  checkEqual('vector index described', described?.map((v) => [v.IndexName, v.VectorAttribute?.AttributeName,
    v.Dimensions, v.DistanceFunction, v.IndexStatus, v.ItemCount, v.Projection?.ProjectionType]),
  [['byMeaning', 'embedding', 3, 'COSINE', 'ACTIVE', 0, 'INCLUDE']]);

  const put = await send(ddb.PutItemCommand, { TableName: T, ReturnConsumedCapacity: 'INDEXES',
    Item: { pk: { S: 'm1' }, tenant: { S: 'acme' }, kind: { N: '1' }, text: { S: 'hello' }, embedding: vec(0.1, 0.2, 0.3) } });
  check('write reports VectorWriteRequestBytes',
    put.ConsumedCapacity?.VectorIndexes?.byMeaning?.VectorWriteRequestBytes > 0, put.ConsumedCapacity);
  for (const [pk, tenant, v] of [['m2', 'acme', [0.1, 0.25, 0.3]], ['m3', 'acme', [0.3, 0.2, 0.1]], ['m4', 'globex', [0.1, 0.2, 0.3]]]) {
    await send(ddb.PutItemCommand, { TableName: T,
      Item: { pk: { S: pk }, tenant: { S: tenant }, kind: { N: '1' }, text: { S: pk }, secret: { S: 'x' }, embedding: vec(...v) } });
  }
  const bad = await expectError('wrong dimensions', 'ValidationException', () => send(ddb.PutItemCommand, {
    TableName: T, Item: { pk: { S: 'm5' }, tenant: { S: 'acme' }, embedding: vec(1, 2) } }));
  checkEqual('wrong dimensions message', bad?.message,
    'One or more parameter values were invalid. Invalid size for parameter embedding, Expected: 3, Actual: 2 IndexName: byMeaning');

  const found = await send(ddb.SearchVectorsCommand, {
    TableName: T, IndexName: 'byMeaning', TopK: 2, SearchVector: [{ N: '0.1' }, { N: '0.2' }, { N: '0.3' }],
    SearchConditionExpression: 'tenant = :t', ExpressionAttributeValues: { ':t': { S: 'acme' } },
    ReturnConsumedCapacity: 'TOTAL' });
  checkEqual('search results', found.SearchResults?.map((r) => r.Item?.pk?.S), ['m1', 'm2']);
  checkEqual('nearest scores 0', found.SearchResults?.[0]?.Score, 0);
  check('second score', found.SearchResults?.[1]?.Score > 0 && found.SearchResults?.[1]?.Score < 0.01,
    found.SearchResults?.[1]?.Score);
  checkEqual('projected as the index projects', Object.keys(found.SearchResults?.[1]?.Item ?? {}).sort(),
    ['kind', 'pk', 'tenant', 'text']);
  check('search bytes', found.ConsumedCapacity?.VectorSearchRequestBytes > 0, found.ConsumedCapacity);
  const topk = await expectError('TopK 101', 'ValidationException', () => send(ddb.SearchVectorsCommand, {
    TableName: T, IndexName: 'byMeaning', TopK: 101, SearchVector: [{ N: '1' }, { N: '0' }, { N: '0' }],
    SearchConditionExpression: 'tenant = :t', ExpressionAttributeValues: { ':t': { S: 'acme' } } }));
  checkEqual('TopK message', topk?.message,
    "Provided TopK value '101' is out of valid range. The value must be between 1 and 100 inclusive");

  await send(ddb.UpdateTableCommand, { TableName: T, VectorIndexUpdates: [{ Create: {
    IndexName: 'everything', VectorAttribute: { AttributeName: 'embedding' },
    Projection: { ProjectionType: 'KEYS_ONLY' }, Dimensions: 3, DistanceFunction: 'DOT_PRODUCT' } }] });
  const two = (await send(ddb.DescribeTableCommand, { TableName: T })).Table?.VectorIndexes;
  checkEqual('backfilled index', two?.map((v) => [v.IndexName, v.ItemCount]), [['byMeaning', 4], ['everything', 4]]);
  const dot = await send(ddb.SearchVectorsCommand, {
    TableName: T, IndexName: 'everything', TopK: 1, SearchVector: [{ N: '1' }, { N: '0' }, { N: '0' }] });
  checkEqual('dot product, largest first', dot.SearchResults?.map((r) => r.Item), [{ pk: { S: 'm3' } }]);
  await send(ddb.UpdateTableCommand, { TableName: T, VectorIndexUpdates: [{ Delete: { IndexName: 'everything' } }] });
  checkEqual('index deleted', (await send(ddb.DescribeTableCommand, { TableName: T })).Table?.VectorIndexes
    ?.map((v) => v.IndexName), ['byMeaning']);
  await send(ddb.DeleteTableCommand, { TableName: T });
}

const dir = mkdtempSync(join(tmpdir(), 'keyhole-js-'));
let server;
try {
  let url;
  ({ server, url } = await startServer(join(dir, 'j.kh')));
  const client = new ddb.DynamoDBClient({
    endpoint: url, region: 'us-east-1', maxAttempts: 1,
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  try {
    await scenario(client);
    await vectorScenario(client);
  } catch (e) {
    failures.push(`scenario stopped: ${e?.name}: ${e?.message}\n${e?.stack}`);
  } finally {
    client.destroy();
  }
} catch (e) {
  failures.push(`server: ${e?.message}`);
} finally {
  if (server && server.exitCode === null && server.signalCode === null) {
    server.kill('SIGTERM');
    const timeout = new Promise((done) => setTimeout(() => done(null), 20000).unref());
    const exit = await Promise.race([server.exited, timeout]);
    if (!exit) {
      server.kill('SIGKILL');
      failures.push('clean stop: the server did not stop on SIGTERM within 20 s');
    } else {
      check('clean stop', exit.code === 0 && server.stderrText.includes('stopped after'),
        `exit ${exit.code} signal ${exit.signal}: ${server.stderrText}`);
    }
  } else if (server) {
    failures.push(`clean stop: the server had already exited (${server.exitCode ?? server.signalCode}): `
      + server.stderrText);
  }
  rmSync(dir, { recursive: true, force: true });
}

for (const f of failures) console.log('FAIL', f);
console.log(`js scenario: ${failures.length ? `${failures.length} failed` : 'ok'}`);
process.exit(failures.length ? 1 : 0);
