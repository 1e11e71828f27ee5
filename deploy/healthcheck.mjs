// Container health: GET /api/health on this server, over HTTPS when it serves HTTPS (its own CA:
// the certificate is not checked here, only that the server answers), else plain http.
import http from 'node:http';
import https from 'node:https';

const port = Number(process.env.PORT ?? 8000);
const get = (mod, options) => new Promise((resolve) => {
  const req = mod.get({ host: '127.0.0.1', port, path: '/api/health', timeout: 4000, ...options }, (res) => { res.resume(); resolve(res.statusCode); });
  req.on('timeout', () => req.destroy());
  req.on('error', () => resolve(0));
});
const status = (await get(https, { rejectUnauthorized: false })) || (await get(http, {}));
process.exit(status === 200 ? 0 : 1);
