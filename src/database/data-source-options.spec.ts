import { dataSourceOptions, serverLocation } from './data-source-options.js';

describe('serverLocation', () => {
  it('gives TypeORM the URL without its query, and mysql2 the socket the query names', () => {
    expect(serverLocation('mariadb://root:p%40ss@localhost/tracker?socketPath=/run/mysqld/mysqld.sock')).toEqual({
      url: 'mysql://root:p%40ss@localhost/tracker',
      socketPath: '/run/mysqld/mysqld.sock',
    });
    expect(serverLocation('mysql://root@127.0.0.1:3306/tracker')).toEqual({ url: 'mysql://root@127.0.0.1:3306/tracker' });
  });

  it('applies to the primary and to each replica', () => {
    const options = dataSourceOptions('mysql://root@localhost/t?socketPath=/s/primary.sock', ['mysql://root@replica:3306/t', 'mysql://root@localhost/t?socketPath=/s/replica.sock']);
    expect(options).toMatchObject({
      replication: {
        master: { url: 'mysql://root@localhost/t', socketPath: '/s/primary.sock' },
        slaves: [{ url: 'mysql://root@replica:3306/t' }, { url: 'mysql://root@localhost/t', socketPath: '/s/replica.sock' }],
      },
    });
    expect(dataSourceOptions('mysql://root@localhost/t?socketPath=/s/primary.sock')).toMatchObject({ url: 'mysql://root@localhost/t', socketPath: '/s/primary.sock' });
  });
});
