// The REST spec's cell parser (scripts/spec/parse-spec.ts, used by `npm run spec:extract`): the
// rules it reads parameter cells by, on cells written the way the spec writes them.
import { describe, expect, it } from 'vitest';
import { parseParamCell } from '../../scripts/spec/parse-spec';

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
});
