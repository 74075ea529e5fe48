// The Mantine components only the back office uses (admin/mantine-admin.css). app/router.tsx loads
// this module before any admin route's chunk, so that their own CSS comes after Mantine's, as it did
// when the whole stylesheet was in the entry.
import './mantine-admin.css';
