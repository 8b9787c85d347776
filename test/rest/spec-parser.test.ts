// The REST spec's cell parser (scripts/spec/parse-spec.ts, used by `npm run spec:extract`): the
// rules it reads parameter cells and field tables by, on text written the way the spec writes it.
import { describe, expect, it } from 'vitest';
import { fieldTable, parseArrayBodyCell, parseParamCell, rangeOf } from '../../scripts/spec/parse-spec';

describe('the spec cell parser', () => {
  const brief = (cell: string) =>
    parseParamCell(cell).map((p) => `${p.name}${p.required === true ? '!' : p.required === false ? '?' : ''}`);

  it('reads names and markers, dropping commentary in parentheses and code lists', () => {
    expect(brief('value int32 required: 0,1,2,3 as auth_mode')).toEqual(['value!']);
    expect(brief('format string opt (audio format amr or mp3; default amr); source string opt')).toEqual(['format?', 'source?']);
    expect(brief('password string optional (required with a user token, not needed with an admin token)')).toEqual(['password?']);
    expect(brief('group_id; user_list array of int64 (required)')).toEqual(['group_id', 'user_list!']);
    expect(brief('none')).toEqual([]);
    expect(brief('-')).toEqual([]);
  });

  it('applies "all required" and "all optional" to the whole cell', () => {
    expect(brief('content string, group_id, title string (all required)')).toEqual(['content!', 'group_id!', 'title!']);
    expect(brief('all optional: avatar, name (strings); type int32')).toEqual(['avatar?', 'name?', 'type?']);
  });

  it('lets bare names share the marker of a following "... strings" piece', () => {
    expect(brief('username string required; alias, sign: optional strings')).toEqual(['username!', 'alias?', 'sign?']);
  });

  it('reads the fields of array elements from braces', () => {
    const [list] = parseParamCell('list array optional of {avatar string required, user_id int64 optional}');
    expect(list?.required).toBe(false);
    expect(list?.items).toEqual([
      { name: 'avatar', required: true, type: 'string' },
      { name: 'user_id', required: false, type: 'int64' },
    ]);
  });

  it('refuses cell text it cannot classify instead of skipping it', () => {
    expect(() => parseParamCell('something new here')).toThrow(/cannot read 'something new here'/);
  });

  it('reads a body that is a JSON array itself (8.3) with the fields of its items, and nothing else as one', () => {
    const body = parseArrayBodyCell(
      'a JSON array, required (the body itself is the array, not an object holding it); each item: user_id int64 required; reason string optional',
    );
    expect(body).toEqual({
      array: true,
      required: true,
      items: [
        { name: 'user_id', required: true, type: 'int64' },
        { name: 'reason', required: false, type: 'string' },
      ],
    });
    expect(parseArrayBodyCell('list array of int64 required')).toBeUndefined();
    expect(() => parseArrayBodyCell('a JSON array, required; each item: user_id int64 required; a new thing')).toThrow(
      /cannot read 'a new thing'/,
    );
  });
});

describe('the spec field-table reader', () => {
  const doc = (rows: string) =>
    ['Body of X:', '', '| Field | Type | Required | Meaning |', '|---|---|---|---|', rows, '', 'after'].join('\n');

  it('reads type, Required column and the stated range of int32 fields', () => {
    const table = fieldTable(
      doc(
        [
          '| content_type | int32 | yes | 0-12, values below |',
          '| type | int32 | yes | 1 normal user, 2 group (minimum 1, maximum 2) |',
          '| attachment | string | no | JSON string |',
          '| targets | array of int64 | yes (listed as required) | receivers |',
        ].join('\n'),
      ),
      'Body of X',
    );
    expect(table).toEqual([
      { name: 'content_type', type: 'int32', required: true, range: [0, 12] },
      { name: 'type', type: 'int32', required: true, range: [1, 2] },
      { name: 'attachment', type: 'string', required: false },
      { name: 'targets', type: 'array of int64', required: true },
    ]);
  });

  it('reads the ways the spec states a range, and no range from other prose', () => {
    expect(rangeOf('0..7 as listed under Message')).toEqual([0, 7]);
    expect(rangeOf('0-6 only: TEXT, IMAGE')).toEqual([0, 6]);
    expect(rangeOf('target type; 1 (normal user) is the only allowed value')).toEqual([1, 1]);
    expect(rangeOf('target type: 1 normal user, 2 group')).toBeUndefined();
  });

  it('refuses a type or Required cell it cannot classify', () => {
    expect(() => fieldTable(doc('| online_only | boolean | maybe | new |'), 'Body of X')).toThrow(/cannot read the field row/);
    expect(() => fieldTable(doc('| at | timestamp | no | new |'), 'Body of X')).toThrow(/cannot read the field row/);
  });
});
