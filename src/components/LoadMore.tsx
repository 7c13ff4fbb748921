import { useEffect, useEffectEvent, useRef } from 'react';

/** 'Load more' button that also loads by itself when scrolled into view. */
export function LoadMore({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  const ref = useRef<HTMLButtonElement>(null);
  const loadWhenIdle = useEffectEvent(() => {
    if (!loading) onLoad();
  });
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && loadWhenIdle(), { rootMargin: '400px' });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return (
    <div className="load-more">
      <button ref={ref} type="button" className="button button-secondary" onClick={onLoad} disabled={loading}>
        {loading ? 'Loading...' : 'Load more'}
      </button>
    </div>
  );
}
