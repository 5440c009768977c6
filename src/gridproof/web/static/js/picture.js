// A line-clue puzzle from a picture, all in the browser: the file is decoded (createImageBitmap,
// so no URL is loaded and the page's Content-Security-Policy is untouched), drawn onto a
// white canvas, averaged into one lightness per cell of the chosen size, and cut at the
// setter's threshold: cells darker than it are painted.

const WORK_SIDE = 600; // the longest side the picture is drawn at before averaging

export async function decode(file) {
  if (typeof createImageBitmap === 'function') return createImageBitmap(file);
  const url = await new Promise((done, fail) => {
    const reader = new FileReader();
    reader.onload = () => done(reader.result);
    reader.onerror = () => fail(reader.error);
    reader.readAsDataURL(file); // data: images are allowed by the page's policy
  });
  const image = new Image();
  image.src = url;
  await image.decode();
  return image;
}

// The lightness (0 black .. 1 white) of every cell of a width × height grid laid over the
// picture; with `fit`, the picture keeps its proportions and white fills the margins.
export function lightness(image, width, height, fit = true) {
  const natural = [image.width || image.naturalWidth, image.height || image.naturalHeight];
  const scale = Math.min(1, WORK_SIDE / Math.max(...natural));
  const cw = Math.max(width, Math.round(natural[0] * scale));
  const ch = Math.max(height, Math.round(natural[1] * scale));
  // The canvas has the grid's proportions; the picture sits in it stretched or fitted.
  const cellPx = Math.max(cw / width, ch / height);
  const W = Math.round(cellPx * width);
  const H = Math.round(cellPx * height);
  const canvas = document.createElement('canvas');
  canvas.width = W;
  canvas.height = H;
  const g = canvas.getContext('2d', { willReadFrequently: true });
  g.fillStyle = '#fff';
  g.fillRect(0, 0, W, H);
  g.imageSmoothingEnabled = true;
  g.imageSmoothingQuality = 'high';
  if (fit) {
    const s = Math.min(W / natural[0], H / natural[1]);
    const dw = natural[0] * s;
    const dh = natural[1] * s;
    g.drawImage(image, (W - dw) / 2, (H - dh) / 2, dw, dh);
  } else {
    g.drawImage(image, 0, 0, W, H);
  }
  const { data } = g.getImageData(0, 0, W, H);
  const sum = new Float64Array(width * height);
  const count = new Float64Array(width * height);
  for (let y = 0; y < H; y += 1) {
    const r = Math.min(height - 1, Math.floor((y * height) / H));
    for (let x = 0; x < W; x += 1) {
      const c = Math.min(width - 1, Math.floor((x * width) / W));
      const k = (y * W + x) * 4;
      sum[r * width + c] += (0.2126 * data[k] + 0.7152 * data[k + 1] + 0.0722 * data[k + 2]) / 255;
      count[r * width + c] += 1;
    }
  }
  return Array.from(sum, (s, i) => (count[i] ? s / count[i] : 1));
}

// Painted where darker than the threshold (0..1); `invert` paints the light parts instead.
export function cut(levels, threshold, invert = false) {
  return Uint8Array.from(levels, (v) => ((invert ? v > threshold : v < threshold) ? 1 : 0));
}

// The cut picture drawn as blocks on a canvas, one block per cell.
export function preview(canvas, bits, width, height, colours) {
  const side = Math.max(4, Math.floor(Math.min(240 / width, 240 / height)));
  canvas.width = width * side;
  canvas.height = height * side;
  const g = canvas.getContext('2d');
  g.fillStyle = colours.blank;
  g.fillRect(0, 0, canvas.width, canvas.height);
  g.fillStyle = colours.ink;
  for (let i = 0; i < bits.length; i += 1) {
    if (bits[i]) g.fillRect((i % width) * side, Math.floor(i / width) * side, side, side);
  }
}

// The "Start from a picture" panel: a file, a size, a threshold (moved live), a preview,
// and "Use this picture", which hands the cut picture and its size to `use`.
export class PicturePanel {
  constructor(ids, use) {
    this.ids = ids;
    this.use = use;
    this.image = null;
    this.bits = null;
    const $ = (name) => document.getElementById(ids[name]);
    this.$ = $;
    $('file').addEventListener('change', () => this.load());
    for (const name of ['threshold', 'invert', 'fit', 'size']) $(name).addEventListener('input', () => this.update());
    $('use').addEventListener('click', () => {
      if (this.bits) this.use(this.bits, ...this.size());
    });
  }

  size() {
    const [w, h] = this.$('size').value.split('x').map(Number);
    return [w, h];
  }

  async load() {
    const file = this.$('file').files[0];
    this.image = null;
    this.bits = null;
    this.$('use').disabled = true;
    if (!file) { this.$('info').textContent = ''; return; }
    try {
      this.image = await decode(file);
    } catch {
      this.$('info').textContent = `${file.name} is not a picture this browser can read (PNG or JPEG).`;
      this.$('preview').hidden = true;
      return;
    }
    this.update();
  }

  update() {
    const threshold = Number(this.$('threshold').value) / 100;
    this.$('threshold-value').textContent = `${Math.round(threshold * 100)}%`;
    this.$('threshold').setAttribute('aria-valuetext', `${Math.round(threshold * 100)} percent`);
    if (!this.image) return;
    const [w, h] = this.size();
    this.levels = lightness(this.image, w, h, this.$('fit').checked);
    this.bits = cut(this.levels, threshold, this.$('invert').checked);
    const style = getComputedStyle(document.documentElement);
    preview(this.$('preview'), this.bits, w, h, {
      ink: style.getPropertyValue('--shade').trim() || '#000',
      blank: style.getPropertyValue('--cell').trim() || '#fff',
    });
    this.$('preview').hidden = false;
    const painted = this.bits.reduce((sum, b) => sum + b, 0);
    this.$('info').textContent = `${w}×${h}: ${painted} of ${w * h} cells painted.`;
    this.$('use').disabled = false;
  }
}
