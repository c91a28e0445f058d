/** `better-sqlite3-napi` is better-sqlite3 13 under an npm alias (see loadSqlite in create-db.ts). */
declare module 'better-sqlite3-napi' {
  import Database from 'better-sqlite3';
  export default Database;
}
