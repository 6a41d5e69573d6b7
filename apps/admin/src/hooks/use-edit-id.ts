import { useParams } from 'react-router';

/** The `:id` of a record page: `new`, or a positive integer (`valid` false otherwise). */
export function useEditId(): { isNew: boolean; id: number | null; valid: boolean } {
  const { id: raw } = useParams();
  const isNew = raw === 'new';
  const id = isNew ? null : Number(raw);
  const valid = isNew || (Number.isInteger(id) && (id ?? 0) > 0);
  return { isNew, id, valid };
}
