// Upload clients for test/security/upload-stall.test.ts, in a process of their own so that
// writing 400 MB to sockets does not delay the test process's own /healthz probes.
// argv: port, number of parallel uploads, path of a file holding one whole HTTP request.
// Sends the request that many times at once, each on its own connection, and prints one JSON
// line: the status codes and the elapsed milliseconds.
import fs from 'node:fs';
import net from 'node:net';

const [port, count, requestFile] = process.argv.slice(2);
const request = fs.readFileSync(requestFile);

function send() {
  return new Promise((resolve) => {
    let text = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(request));
    socket.setTimeout(90_000, () => socket.destroy());
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0)));
  });
}

const started = performance.now();
const statuses = await Promise.all(Array.from({ length: Number(count) }, send));
process.stdout.write(JSON.stringify({ statuses, ms: Math.round(performance.now() - started) }) + '\n');
