import { startTestApp, type TestApp } from '../support/test-app.js';
import { createBugGroup, createProduct, documentedParameters, expectCodedError, firstAudit, ok, ownEntries } from '../support/catalogue-fixtures.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';

describe('Classifications: Get (5.0), Create and Update (beyond 5.0)', () => {
  let t: TestApp;
  let outsider: { id: number; apiKey: string };
  let classifier: { id: number; apiKey: string };
  const vault = named('vault');

  beforeAll(async () => {
    t = await startTestApp();
    await createBugGroup(t, vault);
    outsider = await t.createUser(loginNamed('outsider'));
    classifier = await t.createUser(loginNamed('classifier'), { groups: ['editclassifications'] });
  });
  afterAll(() => t.close());

  describe('while useclassification is off', () => {
    it('Get answers editclassifications members only (900 for others)', async () => {
      expectCodedError(await t.get('/classification/Unclassified', { key: outsider.apiKey }), 900, 400);
      const res = ok(await t.get('/classification/Unclassified', { key: classifier.apiKey }));
      expect(res.classifications[0]).toMatchObject({ id: 1, name: 'Unclassified', sort_key: 0 });
    });

    it('Create and Update are refused with 900', async () => {
      expectCodedError(await t.post('/classification', { name: named('Hardware') }, { key: classifier.apiKey }), 900, 400);
      expectCodedError(await t.put('/classification/Unclassified', { description: 'x' }, { key: classifier.apiKey }), 900, 400);
    });
  });

  describe('with useclassification on', () => {
    let hardware: number;
    const [hardwareName, devicesName] = [named('Hardware'), named('Devices')];
    const [keyboard, safe] = [named('Keyboard'), named('Safe')];
    const ownProducts = (products: Array<{ name: string }>) => ownEntries(t, products, (p) => ['TestProduct', keyboard, safe].includes(p.name));
    beforeAll(async () => {
      await t.setParameters({ useclassification: '1' });
    });
    // A running instance keeps its parameters for the files after this one.
    afterAll(() => t.setParameters({ useclassification: '0' }));

    it('creates a classification', async () => {
      hardware = ok(await t.post('/classification', { name: hardwareName, description: 'Things you can kick', sort_key: 10 }, { key: classifier.apiKey })).id;
      expect(ok(await t.get(`/classification/${hardware}`, { key: classifier.apiKey })).classifications[0].name).toBe(hardwareName);
    });

    inProcessIt('a created classification is audited', async () => {
      expect(await firstAudit(t, 'Tracker::Classification', hardware)).toEqual({ field: '__create__', added: hardwareName });
    });

    it('products are filed in it; Get lists the products the caller may select, by id or name', async () => {
      await createProduct(t, keyboard, { classification: hardwareName });
      await createProduct(t, safe, {
        classification: hardwareName, group_controls: [{ group: vault, membercontrol: 'mandatory', othercontrol: 'mandatory', entry: true }],
      });
      const asOutsider = ok(await t.get(`/classification/${hardware}`, { key: outsider.apiKey }));
      expect(asOutsider).toEqual({
        classifications: [{
          id: hardware, name: hardwareName, description: 'Things you can kick', sort_key: 10,
          products: [{ id: expect.any(Number), name: keyboard, description: `${keyboard} product` }],
        }],
      });
      const asClassifier = ok(await t.get(`/classification/${hardwareName.toLowerCase()}`, { key: classifier.apiKey }));
      expect(asClassifier.classifications[0].products.map((p: any) => p.name)).toEqual([keyboard, safe]);
      expect(ok(await t.get(`/product/${keyboard}`)).products[0].classification).toBe(hardwareName);
    });

    it('ids and names of the query add more; field selection reaches products.name', async () => {
      const res = ok(await t.get(`/classification/${hardwareName}`, { query: { ids: 1, include_fields: 'name,products.name' } }));
      expect(res.classifications.map((c: any) => ({ ...c, products: ownProducts(c.products) }))).toEqual([
        { name: 'Unclassified', products: [{ name: 'TestProduct' }] },
        { name: hardwareName, products: [{ name: keyboard }] },
      ]);
    });

    it('a classification with no product the caller may select is left out for callers outside editclassifications', async () => {
      const empty = ok(await t.post('/classification', { name: named('Empty') }, { key: classifier.apiKey })).id;
      expect(ok(await t.get(`/classification/${empty}`)).classifications).toEqual([]);
      expect(ok(await t.get(`/classification/${empty}`, { key: classifier.apiKey })).classifications[0].products).toEqual([]);
    });

    it('an unknown classification is 51', async () => {
      expectCodedError(await t.get('/classification/NoSuch'), 51, 404);
      expectCodedError(await t.get('/classification/999'), 51, 404);
    });

    it('updates name, description and sort_key with changes; a name for several is refused', async () => {
      const res = ok(await t.put(`/classification/${hardwareName}`, { name: devicesName, description: 'Kickable', sort_key: 5 }, { key: classifier.apiKey }));
      expect(res).toEqual({
        classifications: [{
          id: hardware,
          changes: {
            name: { removed: hardwareName, added: devicesName },
            description: { removed: 'Things you can kick', added: 'Kickable' },
            sort_key: { removed: '10', added: '5' },
          },
        }],
      });
      expect(ok(await t.get(`/product/${keyboard}`)).products[0].classification).toBe(devicesName);
      expectCodedError(await t.put(`/classification/${devicesName}`, { ids: [1], name: named('One') }, { key: classifier.apiKey }), 32000, 400);
      expect(ok(await t.get(`/classification/${devicesName}`, { key: classifier.apiKey })).classifications).toHaveLength(1);
    });

    it('validation: blank name, too long, existing name, bad sort key (32000 each)', async () => {
      const create = (body: Record<string, unknown>) => t.post('/classification', { name: named('Valid'), ...body }, { key: classifier.apiKey });
      expectCodedError(await create({ name: '' }), 32000, 400);
      expectCodedError(await create({ name: 'c'.repeat(65) }), 32000, 400);
      const taken = await create({ name: devicesName.toLowerCase() });
      expectCodedError(taken, 32000, 400);
      expect(taken.body.message).toContain('already exists');
      expectCodedError(await create({ sort_key: -1 }), 32000, 400);
      expectCodedError(await create({ sort_key: 'high' }), 32000, 400);
      expectCodedError(await t.put(`/classification/${devicesName}`, { name: 'Unclassified' }, { key: classifier.apiKey }), 32000, 400);
    });

    it('rights: 410 anonymous, 304 without editclassifications', async () => {
      expectCodedError(await t.post('/classification', { name: 'X' }), 410, 401);
      expectCodedError(await t.post('/classification', { name: 'X' }, { key: outsider.apiKey }), 304, 401);
      expectCodedError(await t.put(`/classification/${devicesName}`, { name: 'X' }, { key: outsider.apiKey }), 304, 401);
    });
  });

  it('the OpenAPI document lists the parameters of Get, Create and Update Classification', async () => {
    expect((await documentedParameters(t, '/classification/{id_or_name}', 'get')).query).toEqual(expect.arrayContaining(['ids', 'names', 'include_fields']));
    expect((await documentedParameters(t, '/classification', 'post')).body).toEqual(['name', 'description', 'sort_key', 'sortkey']);
    expect((await documentedParameters(t, '/classification/{id_or_name}', 'put')).body).toEqual(['ids', 'names', 'name', 'description', 'sort_key', 'sortkey']);
  });
});
