/** Entries of one content type (route /studio/:workspace/content/:type). Being built. */
export default function EntriesListScreen() {
  return <p>Entries</p>;
}
