import { REDACTED, redactCredentials } from './redact.js';

describe('redactCredentials', () => {
  it('removes keys, passwords and tokens in every spelling clients send', () => {
    const secret = 'k3y-Secret_value';
    const texts = [
      `/rest/bug/%FF?Tracker_api_key=${secret}&x=1`, `?Bugzilla_api_key=${secret}`, `?api_key=${secret}`, `?Bugzilla_password=${secret}`,
      `?Tracker_token=${secret}#frag`, `?token=${secret}`, `X-BUGZILLA-API-KEY: ${secret}`, `Authorization: Bearer ${secret}`,
      `{"Bugzilla_password":"${secret}","login":"me"}`, `{"api_key": "${secret}"}`,
    ];
    for (const text of texts) {
      const redacted = redactCredentials(text);
      expect(redacted).not.toContain(secret);
      expect(redacted).toContain(REDACTED);
    }
  });

  it('leaves other text alone', () => {
    expect(redactCredentials("'nope' is not a valid bug number nor an alias to a bug.")).toBe("'nope' is not a valid bug number nor an alias to a bug.");
    expect(redactCredentials('/rest/bug?product=Tokens&summary=password reset')).toBe('/rest/bug?product=Tokens&summary=password reset');
  });
});
