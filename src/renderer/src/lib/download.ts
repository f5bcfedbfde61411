/** Saves text as a file through a temporary Blob link (works in Electron and in a browser). */
export function downloadText(fileName: string, text: string, type = 'application/x-ndjson;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = fileName
  link.style.display = 'none'
  document.body.appendChild(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
