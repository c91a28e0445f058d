/** The entry editor (routes /studio/:workspace/content/:type/:entry and …/new). Being built. */
export default function EntryEditorScreen() {
  return <p>Entry editor</p>;
}
