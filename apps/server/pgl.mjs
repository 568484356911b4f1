import { PGlite } from '@electric-sql/pglite';
let t=Date.now(); const a=new PGlite(); await a.waitReady; console.log('new', Date.now()-t);
await a.exec('create table x(i int); insert into x values (1)');
t=Date.now(); const dump=await a.dumpDataDir('none'); console.log('dump', Date.now()-t, dump.size);
t=Date.now(); const b=new PGlite({loadDataDir: dump}); await b.waitReady; console.log('load', Date.now()-t, (await b.query('select * from x')).rows);
t=Date.now(); const c=new PGlite(); await c.waitReady; console.log('new2', Date.now()-t);
