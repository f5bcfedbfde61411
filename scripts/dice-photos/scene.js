// Runs in headless Chromium (loaded by render.ts): draws one dice scene with three.js and returns
// it as a JPEG data URL. Everything random was decided by render.ts (the scene spec), so a seed
// gives the same picture again. Units are centimetres; the tray's floor is y = 0, centred on 0.
import * as THREE from 'three'
import { RoundedBoxGeometry } from 'three/addons/geometries/RoundedBoxGeometry.js'

const DIE = 1.6
/** Pip centres of each value on a face of side 1 (the same six layouts the reader checks). */
const PIPS = {
  1: [[0.5, 0.5]],
  2: [[0.25, 0.25], [0.75, 0.75]],
  3: [[0.25, 0.25], [0.5, 0.5], [0.75, 0.75]],
  4: [[0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]],
  5: [[0.25, 0.25], [0.75, 0.25], [0.5, 0.5], [0.25, 0.75], [0.75, 0.75]],
  6: [[0.25, 0.22], [0.75, 0.22], [0.25, 0.5], [0.75, 0.5], [0.25, 0.78], [0.75, 0.78]]
}

function canvasTexture(size, draw) {
  const canvas = document.createElement('canvas')
  canvas.width = size
  canvas.height = size
  draw(canvas.getContext('2d'), size)
  const texture = new THREE.CanvasTexture(canvas)
  texture.colorSpace = THREE.SRGBColorSpace
  texture.anisotropy = 4
  return texture
}

function faceTexture(value, die) {
  return canvasTexture(256, (ctx, size) => {
    ctx.fillStyle = die.colour
    ctx.fillRect(0, 0, size, size)
    ctx.fillStyle = value === 1 && die.redOne ? '#c0182a' : die.pipColour
    const radius = size * (value === 1 && die.bigOne ? 0.13 : die.pipSize)
    for (const [u, v] of PIPS[value]) {
      ctx.beginPath()
      if (die.pipStyle === 'square') ctx.roundRect(u * size - radius, v * size - radius, radius * 2, radius * 2, radius * 0.35)
      else ctx.arc(u * size, v * size, radius, 0, Math.PI * 2)
      ctx.fill()
    }
  })
}

/** A seeded generator, so that the textures of a scene are the same on every run. */
function random(seed) {
  let state = seed >>> 0 || 1
  return () => {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    return (state >>> 0) / 4294967296
  }
}

function surfaceTexture(surface, seed) {
  const rand = random(seed)
  const texture = canvasTexture(1024, (ctx, size) => {
    ctx.fillStyle = surface.colour
    ctx.fillRect(0, 0, size, size)
    if (surface.kind === 'felt') {
      for (let i = 0; i < 60000; i++) {
        ctx.fillStyle = rand() < 0.5 ? 'rgba(0,0,0,0.08)' : 'rgba(255,255,255,0.06)'
        ctx.fillRect(rand() * size, rand() * size, 2, 2)
      }
    } else if (surface.kind === 'wood') {
      for (let y = 0; y < size; y += 2) {
        const shade = Math.sin(y * 0.05 + Math.sin(y * 0.013) * 4) * 0.5 + 0.5
        ctx.fillStyle = `rgba(40,20,5,${0.05 + shade * 0.22})`
        ctx.fillRect(0, y, size, 2)
      }
      for (let i = 0; i < 400; i++) {
        ctx.strokeStyle = 'rgba(30,15,5,0.15)'
        ctx.beginPath()
        const y = rand() * size
        ctx.moveTo(0, y)
        ctx.bezierCurveTo(size / 3, y + (rand() - 0.5) * 30, (2 * size) / 3, y + (rand() - 0.5) * 30, size, y + (rand() - 0.5) * 20)
        ctx.stroke()
      }
    } else {
      // cloth: a weave, and for some a check
      for (let y = 0; y < size; y += 4) {
        ctx.fillStyle = y % 8 === 0 ? 'rgba(0,0,0,0.12)' : 'rgba(255,255,255,0.08)'
        ctx.fillRect(0, y, size, 2)
      }
      for (let x = 0; x < size; x += 4) {
        ctx.fillStyle = x % 8 === 0 ? 'rgba(0,0,0,0.10)' : 'rgba(255,255,255,0.06)'
        ctx.fillRect(x, 0, 2, size)
      }
      if (surface.check) {
        ctx.fillStyle = 'rgba(255,255,255,0.10)'
        for (let y = 0; y < size; y += 128) for (let x = (y / 128) % 2 === 0 ? 0 : 64; x < size; x += 128) ctx.fillRect(x, y, 64, 128)
        for (let x = 0; x < size; x += 128) ctx.fillRect(x, 0, 64, size)
      }
    }
  })
  texture.wrapS = THREE.RepeatWrapping
  texture.wrapT = THREE.RepeatWrapping
  texture.repeat.set(surface.repeat, surface.repeat * 0.7)
  return texture
}

/** The rotation that brings the face showing `value` up (+y). Faces: +x 3, -x 4, +y 1, -y 6, +z 2, -z 5. */
function upRotation(value) {
  const euler = {
    1: [0, 0, 0],
    6: [Math.PI, 0, 0],
    3: [0, 0, Math.PI / 2],
    4: [0, 0, -Math.PI / 2],
    2: [-Math.PI / 2, 0, 0],
    5: [Math.PI / 2, 0, 0]
  }[value]
  return new THREE.Quaternion().setFromEuler(new THREE.Euler(...euler))
}

function dieMesh(die) {
  const geometry = new RoundedBoxGeometry(DIE, DIE, DIE, 4, DIE * 0.12)
  const order = [3, 4, 1, 6, 2, 5]
  const materials = order.map((value) => new THREE.MeshStandardMaterial({ map: faceTexture(value, die), roughness: 0.45, metalness: 0 }))
  const mesh = new THREE.Mesh(geometry, materials)
  mesh.castShadow = true
  mesh.receiveShadow = true
  const yaw = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(0, 1, 0), die.yaw)
  const up = upRotation(die.value)
  if (die.cocked) {
    // Leaning on one edge: a tilt about a horizontal axis, lifted so that the low edge touches the floor.
    const tilt = new THREE.Quaternion().setFromAxisAngle(new THREE.Vector3(1, 0, 0), die.cocked)
    mesh.quaternion.copy(yaw).multiply(tilt).multiply(up)
    const a = Math.abs(die.cocked)
    mesh.position.set(die.x, (DIE / 2) * (Math.cos(a) + Math.sin(a)), die.z)
  } else {
    mesh.quaternion.copy(yaw).multiply(up)
    mesh.position.set(die.x, DIE / 2, die.z)
  }
  return mesh
}

window.renderScene = async function renderScene(spec) {
  const canvas = document.createElement('canvas')
  canvas.width = spec.width
  canvas.height = spec.height
  const renderer = new THREE.WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true })
  renderer.setSize(spec.width, spec.height, false)
  renderer.shadowMap.enabled = true
  renderer.shadowMap.type = THREE.PCFSoftShadowMap
  renderer.outputColorSpace = THREE.SRGBColorSpace
  const scene = new THREE.Scene()
  scene.background = new THREE.Color(spec.table.colour)

  const table = new THREE.Mesh(new THREE.PlaneGeometry(400, 400), new THREE.MeshStandardMaterial({ color: spec.table.colour, roughness: 0.9 }))
  table.rotation.x = -Math.PI / 2
  table.position.y = -spec.tray.floor
  table.receiveShadow = true
  scene.add(table)

  const { width: tw, depth: td, wall, rimHeight } = spec.tray
  const floor = new THREE.Mesh(new THREE.PlaneGeometry(tw, td), new THREE.MeshStandardMaterial({ map: surfaceTexture(spec.surface, spec.seed), roughness: 0.95 }))
  floor.rotation.x = -Math.PI / 2
  floor.receiveShadow = true
  scene.add(floor)
  const base = new THREE.Mesh(new THREE.BoxGeometry(tw + 2 * wall, spec.tray.floor, td + 2 * wall), new THREE.MeshStandardMaterial({ color: spec.tray.rimColour, roughness: 0.7 }))
  base.position.y = -spec.tray.floor / 2 - 0.01
  scene.add(base)
  const rimMaterial = new THREE.MeshStandardMaterial({ color: spec.tray.rimColour, roughness: 0.6 })
  for (const [w, d, x, z] of [
    [tw + 2 * wall, wall, 0, -(td + wall) / 2],
    [tw + 2 * wall, wall, 0, (td + wall) / 2],
    [wall, td, -(tw + wall) / 2, 0],
    [wall, td, (tw + wall) / 2, 0]
  ]) {
    const rim = new THREE.Mesh(new THREE.BoxGeometry(w, rimHeight, d), rimMaterial)
    rim.position.set(x, rimHeight / 2 - 0.01, z)
    rim.castShadow = true
    rim.receiveShadow = true
    scene.add(rim)
  }
  for (const die of spec.dice) scene.add(dieMesh(die))

  scene.add(new THREE.HemisphereLight(0xffffff, 0x444444, spec.light.ambient))
  const sun = new THREE.DirectionalLight(0xffffff, spec.light.intensity)
  const el = spec.light.elevation
  const az = spec.light.azimuth
  sun.position.set(Math.cos(el) * Math.cos(az) * 100, Math.sin(el) * 100, Math.cos(el) * Math.sin(az) * 100)
  sun.castShadow = true
  sun.shadow.mapSize.set(2048, 2048)
  sun.shadow.camera.left = -40
  sun.shadow.camera.right = 40
  sun.shadow.camera.top = 40
  sun.shadow.camera.bottom = -40
  sun.shadow.radius = 3
  scene.add(sun)

  const camera = new THREE.PerspectiveCamera(spec.camera.fov, spec.width / spec.height, 1, 1000)
  const { tilt, azimuth, distance, roll } = spec.camera
  // Looking at the tray's centre from `distance`, tilted `tilt` from straight down, from the side `azimuth`.
  camera.position.set(Math.sin(tilt) * Math.sin(azimuth) * distance, Math.cos(tilt) * distance, Math.sin(tilt) * Math.cos(azimuth) * distance)
  if (tilt < 0.02) camera.up.set(Math.sin(azimuth + roll), 0, -Math.cos(azimuth + roll))
  camera.lookAt(spec.camera.target[0], 0, spec.camera.target[1])
  renderer.render(scene, camera)

  // Where each die's top centre lands in the picture (for the manifest's boxes and checks).
  const boxes = spec.dice.map((die) => {
    const corners = []
    for (const sx of [-1, 1]) for (const sy of [-1, 1]) for (const sz of [-1, 1]) corners.push(new THREE.Vector3(sx * DIE / 2, sy * DIE / 2, sz * DIE / 2))
    const mesh = dieMesh(die)
    mesh.updateMatrixWorld()
    const xs = []
    const ys = []
    for (const corner of corners) {
      const p = corner.applyMatrix4(mesh.matrixWorld).project(camera)
      xs.push(((p.x + 1) / 2) * spec.width)
      ys.push(((1 - p.y) / 2) * spec.height)
    }
    const x0 = Math.min(...xs)
    const y0 = Math.min(...ys)
    return [Math.round(x0), Math.round(y0), Math.round(Math.max(...xs) - x0), Math.round(Math.max(...ys) - y0)]
  })
  // The tray's inner corners in the picture: the calibration a person would mark.
  const tray = [
    [-tw / 2, -td / 2],
    [tw / 2, -td / 2],
    [tw / 2, td / 2],
    [-tw / 2, td / 2]
  ].map(([x, z]) => {
    const p = new THREE.Vector3(x, 0, z).project(camera)
    return [Math.round(((p.x + 1) / 2) * spec.width * 10) / 10, Math.round(((1 - p.y) / 2) * spec.height * 10) / 10]
  })

  const out = document.createElement('canvas')
  out.width = spec.width
  out.height = spec.height
  const ctx = out.getContext('2d')
  if (spec.blur > 0) ctx.filter = `blur(${spec.blur}px)`
  ctx.drawImage(canvas, 0, 0)
  const jpeg = out.toDataURL('image/jpeg', spec.quality)
  renderer.dispose()
  renderer.forceContextLoss()
  return { jpeg, boxes, tray }
}
window.sceneReady = true
