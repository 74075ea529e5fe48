import { useSearchParams } from 'react-router';
import { ANALYTICS_PAGE_SIZE, COURSE_GRID_SORTS } from '../../../contract/analytics';
import type { CourseGridOptions } from '../../api/analytics';

/** The grid's view, kept in the address so a link opens the same page. */
export function useGridOptions(): [CourseGridOptions, (next: Partial<CourseGridOptions>) => void] {
  const [params, setParams] = useSearchParams();
  const sort = COURSE_GRID_SORTS.find((s) => s === params.get('sort')) ?? 'name';
  const options: CourseGridOptions = {
    sort,
    order: params.get('order') === 'desc' ? 'desc' : 'asc',
    filter: params.get('filter') === 'at-risk' ? 'at-risk' : 'all',
    page: Math.max(1, Number(params.get('page')) || 1),
    pageSize: ANALYTICS_PAGE_SIZE,
  };
  const update = (next: Partial<CourseGridOptions>) => {
    const merged = { ...options, page: 1, ...next };
    setParams(
      { sort: merged.sort, order: merged.order, filter: merged.filter, page: String(merged.page) },
      { replace: true },
    );
  };
  return [options, update];
}
