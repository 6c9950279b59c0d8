export default function CreatePage() {
  return null;
}
