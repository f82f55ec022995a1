import autocannon from 'autocannon'; import fs from 'node:fs';
const [url, pid, secs='5'] = process.argv.slice(2);
const cpu = () => { const f = fs.readFileSync(`/proc/${pid}/stat`,'utf8').split(') ')[1].split(' '); return (+f[11] + +f[12]) * 10; };
await autocannon({ url, connections: 10, duration: 1 });
const c0 = cpu();
const r = await autocannon({ url, connections: 10, duration: +secs, headers: process.argv[5] ? JSON.parse(process.argv[5]) : {} });
const c1 = cpu(); const n = r.requests.total;
console.log(`${r.requests.average} req/s, ${n} req, CPU ${((c1-c0)*1000/n).toFixed(1)} µs/req, non2xx ${r.non2xx}`);
