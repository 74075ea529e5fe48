/** The product name the server wrote into index.html (PRODUCT_NAME), for titles and the navigation bar. */
export function productName(): string {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="product-name"]')?.content;
  return meta && !meta.includes('%') ? meta : 'Lectern';
}
