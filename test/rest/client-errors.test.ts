// The mapping of upstream failures onto the gateway's fixed error codes.
import { describe, expect, it } from 'vitest';
import { classifyUpstreamError, type ErrorCode, UpstreamError, type UpstreamErrorInit } from '../../src/rest/errors';

const endpoint = 'GET /group/info';
const envelopeCode = (code: number) => new UpstreamError({ endpoint, kind: 'envelope', httpStatus: 200, code });
const httpStatus = (status: number, code?: number) =>
  new UpstreamError({ endpoint, kind: 'http', httpStatus: status, ...(code === undefined ? {} : { code }) });

const BY_CODE: Record<ErrorCode, number[]> = {
  UNAUTHENTICATED: [402, 10003, 10008],
  FORBIDDEN: [10010, 12006, 20011, 20012, 20013, 20018, 20023],
  NOT_FOUND: [10000, 20001, 20020, 20022, 40000],
  BAD_USER_INPUT: [10002, 12002, 12005, 20002, 20004, 20005, 20010, 20014, 20015, 20024, 20025],
  CONFLICT: [10004, 20017],
  RATE_LIMITED: [],
  UPSTREAM_ERROR: [500, 99999, 0],
  UPSTREAM_UNAVAILABLE: [],
};

describe('classifyUpstreamError', () => {
  for (const [expected, codes] of Object.entries(BY_CODE)) {
    for (const code of codes) {
      it(`maps envelope code ${code} to ${expected}`, () => {
        expect(classifyUpstreamError(envelopeCode(code))).toBe(expected);
      });
    }
  }

  it.each([
    [401, 'UNAUTHENTICATED'],
    [403, 'FORBIDDEN'],
    [404, 'NOT_FOUND'],
    [400, 'BAD_USER_INPUT'],
    [409, 'CONFLICT'],
    [429, 'RATE_LIMITED'],
    [500, 'UPSTREAM_UNAVAILABLE'],
    [502, 'UPSTREAM_UNAVAILABLE'],
    [503, 'UPSTREAM_UNAVAILABLE'],
    [504, 'UPSTREAM_UNAVAILABLE'],
    [302, 'UPSTREAM_ERROR'],
    [418, 'UPSTREAM_ERROR'],
  ] as const)('maps HTTP %i without an envelope to %s', (status, expected) => {
    expect(classifyUpstreamError(httpStatus(status))).toBe(expected);
  });

  it('maps 10000 at a /token/* endpoint (a wrong password or an unknown user) to UNAUTHENTICATED', () => {
    for (const login of ['POST /token/id', 'POST /token/login', 'POST /token/user']) {
      expect(classifyUpstreamError(new UpstreamError({ endpoint: login, kind: 'envelope', httpStatus: 200, code: 10000 }))).toBe(
        'UNAUTHENTICATED',
      );
    }
  });

  it('lets a known envelope code win over the HTTP status', () => {
    expect(classifyUpstreamError(httpStatus(400, 20001))).toBe('NOT_FOUND');
    expect(classifyUpstreamError(httpStatus(401, 10008))).toBe('UNAUTHENTICATED');
    expect(classifyUpstreamError(httpStatus(403, 99999))).toBe('FORBIDDEN');
  });

  it.each<[UpstreamErrorInit['kind'], ErrorCode]>([
    ['unavailable', 'UPSTREAM_UNAVAILABLE'],
    ['timeout', 'UPSTREAM_UNAVAILABLE'],
    ['invalid-body', 'UPSTREAM_ERROR'],
  ])('maps kind %s to %s', (kind, expected) => {
    expect(classifyUpstreamError(new UpstreamError({ endpoint, kind, httpStatus: 200 }))).toBe(expected);
  });

  it('formats its message as "<endpoint> failed: upstream code <code>: <message>"', () => {
    const err = new UpstreamError({ endpoint, kind: 'envelope', code: 20001, upstreamMessage: 'group does not exist' });
    expect(err.message).toBe('GET /group/info failed: upstream code 20001: group does not exist');
    expect(err.name).toBe('UpstreamError');
  });
});
