// The plain-JS reference of version.html, in a file of its own: the server sends the
// app's Content-Security-Policy, which runs no inline script but its own.
const params = new URLSearchParams(location.search);
const packageId = params.get('package');
const links = { prev: document.querySelector('a[rel=prev]'), next: document.querySelector('a[rel=next]') };

function size(bytes) {
  const units = ['B', 'kB', 'MB', 'GB'];
  let unit = 0;
  while (bytes >= 1000 && unit < units.length - 1) { bytes /= 1000; unit++; }
  return (unit ? bytes.toFixed(1) : bytes) + ' ' + units[unit];
}

function row(file) {
  const tr = document.createElement('tr');
  for (const text of [file.fileName, size(file.size), file.md5]) {
    const td = document.createElement('td');
    td.textContent = text;
    tr.append(td);
  }
  return tr;
}

function link(a, url) {
  a.hidden = !url;
  if (url) a.href = '?package=' + packageId + '&version=' + url.split('/').pop();
}

async function show(versionId) {
  const response = await fetch('/downloads/v1/dataPackages/' + packageId + '/versions/' + versionId,
    { headers: { Authorization: 'Bearer ' + window.__benchToken } });
  const version = await response.json();
  document.querySelector('h1').textContent = 'Version ' + version.id;
  link(links.prev, version.previousVersionUrl);
  link(links.next, version.nextVersionUrl);
  document.querySelector('tbody').replaceChildren(...version.downloads.map(row));
  const total = version.downloads.reduce((sum, file) => sum + file.size, 0);
  document.querySelector('tfoot td').textContent = version.downloads.length + ' files, ' + size(total);
}

for (const a of Object.values(links)) {
  a.addEventListener('click', event => {
    event.preventDefault();
    history.pushState(null, '', a.href);
    show(new URLSearchParams(a.search).get('version'));
  });
}
addEventListener('popstate', () => show(new URLSearchParams(location.search).get('version')));
show(params.get('version'));
