// The plain-JS reference of gallery.html, in a file of its own: the server sends the
// app's Content-Security-Policy, which runs no inline script but its own.
const grid = document.querySelector('.grid');
const count = document.querySelector('.result-count');
const search = document.querySelector('input[type=search]');
let products = [];

function card(product) {
  const article = document.createElement('article');
  article.className = 'card';
  if (product.imageCount > 0) {
    const img = document.createElement('img');
    img.loading = 'lazy';
    img.alt = product.name;
    img.src = '/downloads/v1/products/' + encodeURIComponent(product.id) + '/images/0';
    article.append(img);
  }
  const title = document.createElement('h2');
  const link = document.createElement('a');
  link.href = '/products/' + encodeURIComponent(product.id);
  link.textContent = product.name;
  title.append(link);
  const description = document.createElement('p');
  description.textContent = product.description;
  article.append(title, description);
  return article;
}

function render() {
  const text = search.value.trim().toLowerCase();
  const shown = products.filter(p => !text || [p.id, p.name, p.description]
    .some(field => field.toLowerCase().includes(text)));
  count.textContent = shown.length === products.length
    ? products.length + ' products'
    : shown.length + ' of ' + products.length + ' products';
  grid.replaceChildren(...shown.map(card));
}

search.addEventListener('input', render);
document.querySelector('form').addEventListener('submit', event => event.preventDefault());
fetch('/downloads/v1/products?expanded')
  .then(response => response.json())
  .then(list => { products = list; render(); });
