import { useCallback } from 'react';
import { useNavigate } from 'react-router';

/** Navigation that replaces the history entry (SPEC.md section 2: navigations replace history). */
export function useReplaceNavigate(): (to: string) => void {
  const navigate = useNavigate();
  return useCallback((to: string) => void navigate(to, { replace: true }), [navigate]);
}
