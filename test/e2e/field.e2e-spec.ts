import { ADMIN_API_KEY, startTestApp, type TestApp } from '../support/test-app.js';
import { createBugGroup, createProduct, documentedParameters, expectCodedError, firstAudit, ok, ownEntries } from '../support/catalogue-fixtures.js';
import { inProcessIt, loginNamed, named } from '../support/in-process.js';
import { FieldService } from '../../src/field/field.service.js';
import { BugCustomValue } from '../../src/bug/entities/bug-custom-value.entity.js';

/** A field id no instance holds. */
const UNKNOWN_FIELD_ID = 99999999;

/**
 * The name of a custom field this file defines, as Create Field answers it: `cf_<base>`, with named()'s suffix on a
 * shared instance (its hyphen made an underscore: a field name is only [a-z0-9_]).
 */
function customField(base: string): string {
  return `cf_${named(base).replace('-', '_')}`;
}

describe('Fields: Get Fields, Legal Values (5.0) and custom fields (beyond 5.0)', () => {
  let t: TestApp;
  let outsider: { id: number; apiKey: string };
  let editor: { id: number; apiKey: string };
  let secretId: number;
  let testProductId: number;
  const secretProduct = named('Secret');
  const secretGroup = named('secretgrp');

  const fieldNamed = async (name: string, key?: string) => ok(await t.get(`/field/bug/${name}`, { key })).fields[0];

  /** Values of a product-specific field, on a shared instance only those of TestProduct and of this file's product. */
  const ownProductValues = (values: any[]) =>
    ownEntries(t, values, (value) => ['TestProduct', secretProduct].includes(value.visibility_values[0]));

  beforeAll(async () => {
    t = await startTestApp();
    await createBugGroup(t, secretGroup);
    outsider = await t.createUser(loginNamed('outsider'));
    editor = await t.createUser(loginNamed('editor'), { groups: ['editcomponents'] });
    secretId = await createProduct(t, secretProduct, {
      group_controls: [{ group: secretGroup, membercontrol: 'mandatory', othercontrol: 'mandatory', entry: true }],
    }, { name: 'Vault' });
    testProductId = ok(await t.get('/product/TestProduct')).products[0].id;
  });
  afterAll(() => t.close());

  describe('GET /rest/field/bug', () => {
    it('lists every standard field with id, type, flags and visibility', async () => {
      const { fields } = ok(await t.get('/field/bug'));
      const summary = fields.find((f: any) => f.name === 'short_desc');
      expect(summary).toEqual({
        id: expect.any(Number), type: 1, is_custom: false, name: 'short_desc', display_name: 'Summary',
        is_mandatory: true, is_on_bug_entry: false, visibility_field: null, visibility_values: [],
      });
      expect(fields.find((f: any) => f.name === 'product')).not.toHaveProperty('values');
      // Custom fields of other files and runs on a shared instance are left out.
      const mandatory = ownEntries(t, fields.filter((f: any) => f.is_mandatory), (f: any) => !f.is_custom);
      expect(mandatory.map((f: any) => f.name).sort()).toEqual(['component', 'product', 'short_desc', 'version']);
      expect(fields.map((f: any) => f.name)).toEqual(expect.arrayContaining(['bug_status', 'resolution', 'component', 'version', 'keywords']));
    });

    it('bug_status values carry the workflow: the new-bug pseudo-status first, then each status with its transitions', async () => {
      const status = await fieldNamed('bug_status');
      expect(status.value_field).toBeNull();
      // 5.0's pseudo-status has no name (null), not an empty one.
      expect(status.values[0]).toEqual({
        name: null, is_open: true, sort_key: 0, sortkey: 0, visibility_values: [],
        can_change_to: [
          { name: 'UNCONFIRMED', comment_required: false }, { name: 'CONFIRMED', comment_required: false },
          { name: 'IN_PROGRESS', comment_required: false },
        ],
      });
      const resolved = status.values.find((v: any) => v.name === 'RESOLVED');
      expect(resolved).toMatchObject({ is_open: false, sort_key: 400 });
      expect(resolved.can_change_to.map((c: any) => c.name)).toEqual(['UNCONFIRMED', 'CONFIRMED', 'VERIFIED']);
    });

    it('plain select values have sort keys and is_active', async () => {
      const severity = await fieldNamed('bug_severity');
      expect(severity.values[0]).toEqual({ name: 'blocker', sort_key: 100, sortkey: 100, visibility_values: [], is_active: true });
      expect(severity.values).toHaveLength(7);
    });

    it('component, version and target_milestone values belong to products the caller may see (value_field product)', async () => {
      const component = await fieldNamed('component', outsider.apiKey);
      expect(component.value_field).toBe('product');
      expect(ownProductValues(component.values)).toEqual([{ name: 'TestComponent', sort_key: 0, sortkey: 0, visibility_values: ['TestProduct'], is_active: true }]);
      const asAdmin = await fieldNamed('component', ADMIN_API_KEY);
      // In Bugzilla's LIST_ORDER of each: components by product id then name, versions by id, milestones by sort key
      // then value (ties by id). TestProduct came first.
      expect(ownProductValues(asAdmin.values).map((v: any) => v.visibility_values[0])).toEqual(['TestProduct', secretProduct]);
      const allVersions = await fieldNamed('version', ADMIN_API_KEY);
      expect(ownProductValues(allVersions.values).map((v: any) => v.visibility_values[0])).toEqual(['TestProduct', secretProduct]);
      const versions = await fieldNamed('version', outsider.apiKey);
      expect(ownProductValues(versions.values).map((v: any) => v.name)).toEqual(['unspecified']);
      const milestones = await fieldNamed('target_milestone', ADMIN_API_KEY);
      expect(ownProductValues(milestones.values).map((v: any) => [v.name, v.visibility_values[0]])).toEqual([['---', 'TestProduct'], ['---', secretProduct]]);
    });

    it('classification values are every classification by sort key then name, whoever asks (Bugzilla::Classification)', async () => {
      const [zeta, alpha, late] = [named('Zeta'), named('Alpha'), named('Late')];
      await t.setParameters({ useclassification: '1' });
      try {
        ok(await t.post('/classification', { name: zeta, description: 'z' }, { key: ADMIN_API_KEY }));
        ok(await t.post('/classification', { name: alpha, description: 'a' }, { key: ADMIN_API_KEY }));
        ok(await t.post('/classification', { name: late, description: 'l', sort_key: 5 }, { key: ADMIN_API_KEY }));
      } finally {
        // A running instance keeps its parameters for the files after this one.
        await t.setParameters({ useclassification: '0' });
      }
      const values = ownEntries(t, (await fieldNamed('classification', outsider.apiKey)).values, (value: any) => ['Unclassified', zeta, alpha, late].includes(value.name));
      expect(values).toEqual([
        { name: alpha, sort_key: 0, sortkey: 0, visibility_values: [] },
        { name: 'Unclassified', sort_key: 0, sortkey: 0, visibility_values: [] },
        { name: zeta, sort_key: 0, sortkey: 0, visibility_values: [] },
        { name: late, sort_key: 5, sortkey: 5, visibility_values: [] },
      ]);
    });

    it('keywords values are the active keywords with descriptions', async () => {
      const [crash, old] = [named('crash'), named('old')];
      ok(await t.post('/keyword', { name: crash, description: 'It falls over' }, { key: ADMIN_API_KEY }));
      ok(await t.post('/keyword', { name: old, description: 'Retired', is_active: false }, { key: ADMIN_API_KEY }));
      const values = ownEntries(t, (await fieldNamed('keywords')).values, (value: any) => [crash, old].includes(value.name));
      expect(values).toEqual([{ name: crash, description: 'It falls over' }]);
    });

    it('one field by id or name, more by ids/names; field selection reaches values.name; unknown is 51', async () => {
      const priority = await fieldNamed('priority');
      expect((await fieldNamed(String(priority.id))).name).toBe('priority');
      const both = ok(await t.get('/field/bug', { query: { names: ['priority', 'op_sys'] } })).fields.map((f: any) => f.name);
      expect(both.sort()).toEqual(['op_sys', 'priority']);
      const trimmed = ok(await t.get('/field/bug/priority', { query: { include_fields: 'name,values.name' } })).fields[0];
      expect(trimmed).toEqual({ name: 'priority', values: ['Highest', 'High', 'Normal', 'Low', 'Lowest', '---'].map((name) => ({ name })) });
      expectCodedError(await t.get('/field/bug/no_such_field'), 51, 404);
      expectCodedError(await t.get(`/field/bug/${UNKNOWN_FIELD_ID}`), 51, 404);
    });
  });

  describe('GET /rest/field/bug/(field)/values', () => {
    it('global selects by internal or API name: active values in sort order', async () => {
      expect(ok(await t.get('/field/bug/status/values')).values).toEqual(['UNCONFIRMED', 'CONFIRMED', 'IN_PROGRESS', 'RESOLVED', 'VERIFIED']);
      expect(ok(await t.get('/field/bug/rep_platform/values')).values).toEqual(['All', 'PC', 'Macintosh', 'Other']);
      expect(ok(await t.get('/field/bug/resolution/values')).values[0]).toBe('');
    });

    it('product-specific fields need an accessible product_id (50 without, 106 for an invisible one)', async () => {
      expect(ok(await t.get(`/field/bug/version/${testProductId}/values`)).values).toEqual(['unspecified']);
      expect(ok(await t.get('/field/bug/component/values', { query: { product_id: testProductId } })).values).toEqual(['TestComponent']);
      expectCodedError(await t.get('/field/bug/version/values'), 50, 400);
      expectCodedError(await t.get(`/field/bug/component/${secretId}/values`, { key: outsider.apiKey }), 106, 401);
      expect(ok(await t.get(`/field/bug/component/${secretId}/values`, { key: ADMIN_API_KEY })).values).toEqual(['Vault']);
    });

    it('a field without legal values is 108', async () => {
      expectCodedError(await t.get('/field/bug/short_desc/values'), 108, 400);
      expectCodedError(await t.get('/field/bug/product/values'), 108, 400);
      expectCodedError(await t.get('/field/bug/nonsense/values'), 108, 400);
    });
  });

  describe('custom fields (POST /rest/field/bug, beyond 5.0)', () => {
    const color = customField('color');
    let colorId: number;
    let colouredBug: number;

    it('a drop-down defined by the admin shows in field/bug with its values, and in Legal Values', async () => {
      const id = ok(await t.post('/field/bug', {
        name: color.slice('cf_'.length), type: 'SINGLE_SELECT', description: 'Colour', values: ['red', 'green'], is_on_bug_entry: true,
      }, { key: ADMIN_API_KEY })).id;
      const field = await fieldNamed(color);
      expect(field).toEqual({
        id, type: 2, is_custom: true, name: color, display_name: 'Colour', is_mandatory: false, is_on_bug_entry: true,
        visibility_field: null, visibility_values: [], value_field: null,
        values: [
          { name: '---', sort_key: 0, sortkey: 0, visibility_values: [], is_active: true },
          { name: 'red', sort_key: 100, sortkey: 100, visibility_values: [], is_active: true },
          { name: 'green', sort_key: 200, sortkey: 200, visibility_values: [], is_active: true },
        ],
      });
      expect(ok(await t.get('/field/bug')).fields.map((f: any) => f.name)).toContain(color);
      expect(ok(await t.get(`/field/bug/${color}/values`)).values).toEqual(['---', 'red', 'green']);
      colorId = id;
    });

    inProcessIt('audits the definition (reads the audit log)', async () => {
      expect(await firstAudit(t, 'Tracker::Field', colorId))
        .toEqual({ field: '__create__', added: color });
    });

    it('bugs store the custom field values (Create Bug and Get Bug of the bug module)', async () => {
      const bug = ok(await t.post('/bug', {
        product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'Coloured', op_sys: 'All', platform: 'All', [color]: 'red',
      }, { key: ADMIN_API_KEY })).id;
      expect(ok(await t.get(`/bug/${bug}`, { query: { include_fields: `id,${color}` } })).bugs).toEqual([{ id: bug, [color]: 'red' }]);
      expectCodedError(await t.post('/bug', {
        product: 'TestProduct', component: 'TestComponent', version: 'unspecified', summary: 'Bad colour', op_sys: 'All', platform: 'All', [color]: 'blue',
      }, { key: ADMIN_API_KEY }), 51, 404);
      colouredBug = bug;
    });

    inProcessIt('a bug stores its custom field value in a row of its own (reads the database)', async () => {
      expect((await t.db.read.repository(BugCustomValue).findBy({ bugId: colouredBug })).map(({ value }) => ({ value }))).toEqual([{ value: 'red' }]);
    });

    it('every kind, by name or by number, shows with its type number; non-select kinds have no values', async () => {
      const kinds: Array<[string, string | number, number]> = [
        [customField('note'), 'FREETEXT', 1], [customField('tags'), 'MULTI_SELECT', 3], [customField('story'), 'textarea', 4], [customField('when'), 5, 5],
        [customField('parent'), 'BUG_ID', 6], [customField('due'), 'FIELD_TYPE_DATE', 9], [customField('points'), 10, 10],
      ];
      for (const [name, type, number] of kinds) {
        ok(await t.post('/field/bug', { name, type, description: name }, { key: ADMIN_API_KEY }));
        const field = await fieldNamed(name);
        expect({ name: field.name, type: field.type, hasValues: 'values' in field }).toEqual({ name, type: number, hasValues: number === 3 });
      }
      expect((await fieldNamed(customField('tags'))).values.map((v: any) => v.name)).toEqual(['---']);
    });

    inProcessIt('a mandatory field says so (on a shared instance it would refuse every bug filed without it)', async () => {
      ok(await t.post('/field/bug', { name: 'cf_required', type: 10, description: 'Required', is_mandatory: true }, { key: ADMIN_API_KEY }));
      expect((await fieldNamed('cf_required')).is_mandatory).toBe(true);
    });

    inProcessIt('the admin command line defines fields through FieldService.createCustomField', async () => {
      const id = await t.app.get(FieldService).createCustomField({ name: 'cf_from_cli', type: 'INTEGER', description: 'From the CLI' }, { userId: 1, now: new Date() });
      expect((await fieldNamed('cf_from_cli')).id).toBe(id);
      expect((await t.app.get(FieldService).customFields()).map((f) => f.name)).toContain('cf_from_cli');
    });

    it('validation: name (missing, invalid, just cf_, taken), description, type, values (32000); values on a text field 53', async () => {
      const valid = customField('ok');
      const create = (body: Record<string, unknown>) => t.post('/field/bug', { name: valid, type: 'FREETEXT', description: 'd', ...body }, { key: ADMIN_API_KEY });
      for (const body of [
        { name: '' }, { name: 'bad-name' }, { name: 'cf_' }, { name: color.slice('cf_'.length) }, { name: color.toUpperCase() }, { description: ' ' },
        { type: 'CHECKBOX' }, { type: 7 }, { type: 8 }, { type: 'SINGLE_SELECT', values: ['a', 'A'] },
        { type: 'SINGLE_SELECT', values: ['---'] }, { type: 'SINGLE_SELECT', values: [' '] }, { type: 'SINGLE_SELECT', values: ['v'.repeat(65)] },
      ]) {
        expectCodedError(await create(body), 32000, 400);
      }
      expectCodedError(await create({ values: ['a'] }), 53, 400);
      expectCodedError(await create({ sort_key: 'last' }), 52, 400);
      expect(ok(await t.get('/field/bug')).fields.map((f: any) => f.name)).not.toContain(valid);
    });

    it('typed input: Bugzilla booleans in the query, numbers as values; a value of the wrong type is 53', async () => {
      const id = ok(await t.request('POST', '/field/bug', {
        query: { name: customField('size'), type: 'SINGLE_SELECT', description: 'Size', is_on_bug_entry: 'True', is_mandatory: '0' }, body: { values: [1, 2, 'XL'] }, key: ADMIN_API_KEY,
      })).id;
      const size = await fieldNamed(customField('size'));
      expect({ id: size.id, on: size.is_on_bug_entry, mandatory: size.is_mandatory, values: size.values.map((v: any) => v.name) })
        .toEqual({ id, on: true, mandatory: false, values: ['---', '1', '2', 'XL'] });
      const bad = customField('bad');
      expectCodedError(await t.post('/field/bug', { name: bad, type: 1, description: { text: 'x' } }, { key: ADMIN_API_KEY }), 53, 400);
      expectCodedError(await t.post('/field/bug', { name: bad, type: 2, description: 'x', values: [{ name: 'a' }] }, { key: ADMIN_API_KEY }), 53, 400);
      expectCodedError(await t.post('/field/bug', { name: bad, type: { t: 1 }, description: 'x' }, { key: ADMIN_API_KEY }), 53, 400);
    });

    it('rights: 410 anonymous, 304 for a non-admin', async () => {
      const refused = customField('x');
      expectCodedError(await t.post('/field/bug', { name: refused, type: 1, description: 'x' }), 410, 401);
      expectCodedError(await t.post('/field/bug', { name: refused, type: 1, description: 'x' }, { key: editor.apiKey }), 304, 401);
    });
  });

  describe('the catalogue routes beyond Bugzilla 5.0 say so in the OpenAPI document', () => {
    it('each one has "Beyond Bugzilla 5.0." in its summary', async () => {
      const { paths } = ok(await t.get('/openapi.json'));
      const beyond: Array<[string, string]> = [
        ['/rest/field/bug', 'post'], ['/rest/keyword', 'get'], ['/rest/keyword', 'post'], ['/rest/keyword/{id_or_name}', 'put'],
        ['/rest/classification', 'post'], ['/rest/classification/{id_or_name}', 'put'],
        ['/rest/product/{product}/version', 'post'], ['/rest/product/{product}/version/{name}', 'put'],
        ['/rest/product/{product}/milestone', 'post'], ['/rest/product/{product}/milestone/{name}', 'put'],
        ['/rest/component/{id}', 'put'], ['/rest/component/{product}/{component}', 'put'],
        ['/rest/component/{id}', 'delete'], ['/rest/component/{product}/{component}', 'delete'],
      ];
      for (const [path, method] of beyond) expect(`${method} ${path}: ${paths[path]?.[method]?.summary}`).toContain('Beyond Bugzilla 5.0.');
      expect(paths['/rest/field/bug'].get.summary).not.toContain('Beyond');
      expect(paths['/rest/product'].post.summary).toContain('group_controls');
    });

    it('the field routes list their parameters', async () => {
      for (const path of ['/field/bug', '/field/bug/{id_or_name}']) {
        expect((await documentedParameters(t, path, 'get')).query).toEqual(expect.arrayContaining(['ids', 'names', 'include_fields']));
      }
      expect((await documentedParameters(t, '/field/bug/{field}/values', 'get')).query).toEqual(['product_id']);
      expect((await documentedParameters(t, '/field/bug/{field}/{product_id}/values', 'get')).query).toEqual(['product_id']);
      expect((await documentedParameters(t, '/field/bug', 'post')).body).toEqual([
        'name', 'type', 'description', 'values', 'is_mandatory', 'is_on_bug_entry', 'sort_key', 'reverse_desc',
      ]);
    });
  });
});
