/**
 * The folder rule of `npm run layers`, in a pass of its own: the folders of domain/ (one per institution) and of
 * components/ (one per page, beside the shared files at its root) import each other one way only, type-only imports included.
 * It cruises production files alone: a test may reach across folders (and into app/) to set up what it checks,
 * which would close loops the code itself does not have. The module rules are in .dependency-cruiser.cjs.
 */
const { options } = require("./.dependency-cruiser.cjs");

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "no-folder-cycles",
      severity: "error",
      comment:
        "Two folders import each other, through any path (type-only imports count). Move the piece that closes the loop to where it belongs: " +
        "a type two folders share goes to the lower one, and the journal, which most institutions append to, imports none of them.",
      scope: "folder",
      from: { path: "^(domain|components)/[^/]+$" },
      to: { circular: true },
    },
  ],
  options: { ...options, exclude: { path: [options.exclude.path, "\\.(test|spec)\\.tsx?$"] } },
};
