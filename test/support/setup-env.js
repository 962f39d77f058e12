// The service runs in UTC everywhere (Bugzilla's server zone for this service is UTC).
process.env.TZ = 'UTC';
