// Stands in for `dijkstrajs` in the element's bundle. qrcode needs it only to choose segments for a plain string;
// the element always passes one byte segment (widget/qr.ts), so it is never called.
module.exports = {
  find_path() {
    throw new Error('dijkstrajs is not bundled: pass explicit segments to qrcode');
  },
};
