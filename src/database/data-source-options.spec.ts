import { dataSourceOptions, serverLocation } from './data-source-options.js';

describe('serverLocation', () => {
  it('gives TypeORM the URL without its query, and mysql2 the socket the query names', () => {
    expect(serverLocation('mariadb://root:p%40ss@localhost/tracker?socketPath=/run/mysqld/mysqld.sock')).toEqual({
      url: 'mysql://root:p%40ss@localhost/tracker',
      socketPath: '/run/mysqld/mysqld.sock',
    });
    expect(serverLocation('mysql://root@127.0.0.1:3306/tracker')).toEqual({ url: 'mysql://root@127.0.0.1:3306/tracker' });
  });

  it('applies to the primary; replicas are no TypeORM replication (Db opens their pools)', () => {
    const options = dataSourceOptions('mysql://root@localhost/t?socketPath=/s/primary.sock');
    expect(options).toMatchObject({ url: 'mysql://root@localhost/t', socketPath: '/s/primary.sock' });
    expect(options).not.toHaveProperty('replication');
  });
});
