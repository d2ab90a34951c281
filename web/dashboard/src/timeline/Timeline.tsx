export function Timeline() {
  return <p>Timeline</p>;
}
